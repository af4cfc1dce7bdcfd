"use client";

import { useCallback, useState, useSyncExternalStore } from "react";

/**
 * One component's clock, read through useSyncExternalStore (the browser's clock is outside React): the time
 * when it starts and at each tick. `fromFirstRead` clocks read the time as soon as they are first read;
 * the others read null until they start, after mount.
 */
function createClock(fromFirstRead: boolean) {
  let now: number | null = null;
  return {
    read: () => (fromFirstRead ? (now ??= Date.now()) : now),
    start(intervalMs: number, active: boolean, onTick: () => void): () => void {
      const tick = () => {
        now = Date.now();
        onTick();
      };
      tick();
      if (!active) return () => {};
      const timer = setInterval(tick, intervalMs);
      return () => clearInterval(timer);
    },
  };
}

const readNothing = () => null;

function useClock(clock: ReturnType<typeof createClock>, intervalMs: number, active: boolean) {
  return useCallback((onTick: () => void) => clock.start(intervalMs, active, onTick), [clock, intervalMs, active]);
}

/**
 * The time now, ticking every `intervalMs` while `active`. It reads null until mounted, so a server render
 * and the first client render agree.
 */
export function useNow(intervalMs: number, active = true): number | null {
  const [clock] = useState(() => createClock(false));
  return useSyncExternalStore(useClock(clock, intervalMs, active), clock.read, readNothing);
}

/**
 * The time now from the first render on, ticking every `intervalMs`: for components that only ever render
 * in the browser (after their data has loaded), where no server render has to agree with the first.
 */
export function useClientNow(intervalMs: number): number {
  const [clock] = useState(() => createClock(true));
  const read = clock.read as () => number;
  return useSyncExternalStore(useClock(clock, intervalMs, true), read, read);
}

const noSubscription = () => () => {};
const skews = new WeakMap<object, number>();

/** The server's clock minus the browser's, measured once per answer, when it is first read. */
function measuredSkew(answer: { serverTime: number }): number {
  let skew = skews.get(answer);
  if (skew === undefined) {
    skew = answer.serverTime - Date.now();
    skews.set(answer, skew);
  }
  return skew;
}

/**
 * How far the server's clock (an answer's `serverTime`) is ahead of the browser's, as measured when the answer
 * arrived: what countdowns add to the browser's clock to follow the server's. 0 without an answer.
 */
export function useServerSkew(answer: { serverTime: number } | undefined): number {
  return useSyncExternalStore(
    noSubscription,
    () => (answer ? measuredSkew(answer) : 0),
    () => 0,
  );
}
