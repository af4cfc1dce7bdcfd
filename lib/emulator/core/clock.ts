import type { Clock } from "../types";

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

export interface FakeClock extends Clock {
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the time to `ms` (epoch milliseconds). */
  set(ms: number): void;
}

/** A clock that only moves when told to: tests drive token expiry and cursor lifetimes with it. */
export function createFakeClock(startMs = Date.UTC(2026, 0, 1)): FakeClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
  };
}

/**
 * A clock that follows `base` plus an offset that the admin surface can push forward
 * (POST /admin/clock), so a running emulator can be told that 12 hours have passed.
 */
export interface AdjustableClock extends Clock {
  advance(ms: number): void;
  offsetMs(): number;
}

/** `onAdvance` hears every move (the journal keeps the offset). */
export function createAdjustableClock(base: Clock, onAdvance?: () => void): AdjustableClock {
  let offset = 0;
  return {
    now: () => base.now() + offset,
    advance(ms) {
      offset += ms;
      onAdvance?.();
    },
    offsetMs: () => offset,
  };
}
