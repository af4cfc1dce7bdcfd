import { z } from "zod";
import { processSingleton } from "@/lib/process-singleton";
import type { PlatformTransport } from "./call-method";
import { platformClockFor } from "./platform-clock";

/** Where an emulator describes itself (lib/emulator/core/about.ts); the platform answers 404 there. */
export const EMULATOR_ABOUT_PATH = "/.well-known/emulator";

/** How long what the upstream said about itself, and the platform's time, are taken as current without asking again. */
export const IDLE_READ_MS = 30_000;

const AboutAnswer = z.object({
  emulator: z.literal(true),
  instance_id: z
    .string()
    .regex(/^[\x21-\x7e]{1,100}$/)
    .optional(),
  clock: z.object({ now_ms: z.number().finite(), max_offset_s: z.number().positive(), offset_s: z.number() }),
  lifetimes_s: z.object({
    access_token: z.number().positive(),
    refresh_grace: z.number().min(0),
    authorization_code: z.number().positive(),
    cursor: z.number().positive(),
  }),
});

/** What the upstream says it is: the platform (no clock control), or an emulator with a clock that moves. */
export type UpstreamAbout =
  | { emulator: false }
  | {
      emulator: true;
      /** Which emulator this is: new after a reset or in a new emulator, kept across restarts of one that keeps its state. */
      instanceId?: string;
      /** How far the emulator's clock may be ahead of the wall clock in all, and how far it is. */
      maxOffsetS: number;
      offsetS: number;
      /** The lifetimes its clock decides, in seconds. */
      lifetimesS: { accessToken: number; refreshGrace: number; authorizationCode: number; cursor: number };
    };

interface AboutCache {
  about?: UpstreamAbout;
  readAt?: number;
  reading?: Promise<UpstreamAbout>;
}

const aboutCache = (baseUrl: string) => processSingleton<AboutCache>(`upstreamAbout:${baseUrl.replace(/\/+$/, "")}`, () => ({}));

/** The last answer while it is current (asked, and the platform's time heard, within IDLE_READ_MS), else undefined. */
function currentAbout(cache: AboutCache, baseUrl: string): UpstreamAbout | undefined {
  const now = Date.now();
  const observed = platformClockFor(baseUrl).lastObservedAt();
  const stale = cache.readAt === undefined || now - cache.readAt > IDLE_READ_MS || observed === undefined || now - observed > IDLE_READ_MS;
  return stale ? undefined : cache.about;
}

/**
 * What `upstreamAbout` would answer without asking, without a promise: the last answer while it is current,
 * or undefined when only `upstreamAbout` can say (it asks). For the token API's warm path.
 */
export function knownUpstreamAbout(baseUrl: string): UpstreamAbout | undefined {
  return currentAbout(aboutCache(baseUrl), baseUrl);
}

/**
 * Asks the upstream what it is: GET {base}/.well-known/emulator. Its answer also says the platform's time
 * (the emulator's to the millisecond, the platform's in the Date of its 404), which the platform clock
 * takes in. Throws when there is no answer.
 */
export async function readUpstreamAbout(baseUrl: string, options: { transport?: PlatformTransport; timeoutMs: number }): Promise<UpstreamAbout> {
  const url = `${baseUrl.replace(/\/+$/, "")}${EMULATOR_ABOUT_PATH}`;
  const clock = platformClockFor(baseUrl);
  const sentAt = Date.now();
  const response = options.transport
    ? await options.transport(new Request(url))
    : await fetch(url, { redirect: "manual", cache: "no-store", signal: AbortSignal.timeout(options.timeoutMs) });
  const body: unknown = await response.json().catch(() => undefined);
  const receivedAt = Date.now();
  const parsed = response.status === 200 ? AboutAnswer.safeParse(body) : undefined;
  if (!parsed?.success) {
    clock.observeDate(response.headers.get("date"), sentAt, receivedAt);
    return { emulator: false };
  }
  const { clock: emulatorClock, lifetimes_s: l, instance_id: instanceId } = parsed.data;
  clock.observeTime(emulatorClock.now_ms, sentAt, receivedAt);
  return {
    emulator: true,
    ...(instanceId ? { instanceId } : {}),
    maxOffsetS: emulatorClock.max_offset_s,
    offsetS: emulatorClock.offset_s,
    lifetimesS: { accessToken: l.access_token, refreshGrace: l.refresh_grace, authorizationCode: l.authorization_code, cursor: l.cursor },
  };
}

/**
 * What the upstream at `baseUrl` said about itself, asked again when IDLE_READ_MS have passed since it was
 * asked or since any answer last said the platform's time: the cheap periodic read that keeps the platform
 * clock current while no call is made (a clock moved with curl shows within that time). Concurrent
 * requests share one read; without an answer, the last known one stands (the platform by default).
 */
export async function upstreamAbout(baseUrl: string, options: { transport?: PlatformTransport; timeoutMs: number; fresh?: boolean }): Promise<UpstreamAbout> {
  const cache = aboutCache(baseUrl);
  const current = options.fresh ? undefined : currentAbout(cache, baseUrl);
  if (current) return current;
  cache.reading ??= readUpstreamAbout(baseUrl, options)
    .then((about) => {
      cache.about = about;
      cache.readAt = Date.now();
      return about;
    })
    .finally(() => {
      cache.reading = undefined;
    });
  try {
    return await cache.reading;
  } catch {
    return cache.about ?? { emulator: false };
  }
}
