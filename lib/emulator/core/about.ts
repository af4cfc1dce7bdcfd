import { MAX_CLOCK_OFFSET_S } from "../admin/admin";
import { CODE_LIFETIME_MS } from "../oauth/authorize";
import { EXPIRING_TOKEN_LIFETIME_S } from "../tokens/tokens";
import type { EmulatorState, ResolvedOptions } from "../types";
import type { AdjustableClock } from "./clock";
import { jsonResponse } from "./errors";

/** Where the emulator describes itself: public, outside the admin surface, and nothing the platform answers. */
export const ABOUT_PATH = "/.well-known/emulator";

/**
 * GET {base}/.well-known/emulator: that this upstream is an emulator, its clock, and the lifetimes its
 * clock decides. A console asks it rather than guessing from a URL (the real platform answers 404 here),
 * and shows its clock control only when the answer says `emulator: true`. Nothing in it is a secret: a
 * client learns the same from any answer's Date header and the spec; moving the clock stays on the admin
 * surface (POST /admin/clock), behind its guard. `instance_id` names the emulator's state, so a client that
 * stored it with what it installed notices an emulator that was reset or replaced.
 */
export function describeEmulator(state: EmulatorState, clock: AdjustableClock, options: ResolvedOptions): Response {
  const now = clock.now();
  return jsonResponse({
    ok: true,
    emulator: true,
    // Which emulator this is: new after a reset, kept across restarts. Not a secret.
    instance_id: state.instanceId,
    clock: {
      now: new Date(now).toISOString(),
      now_ms: now,
      offset_s: Math.round(clock.offsetMs() / 1000),
      max_offset_s: MAX_CLOCK_OFFSET_S,
      move: "POST {base}/admin/clock",
    },
    lifetimes_s: {
      access_token: EXPIRING_TOKEN_LIFETIME_S,
      refresh_grace: options.refreshGraceSeconds,
      authorization_code: CODE_LIFETIME_MS / 1000,
      cursor: options.cursorTtlSeconds,
    },
  });
}

/**
 * The answer with a Date header from the emulator's own clock, as the platform writes its own: a client
 * that reads the platform's time from its answers (the console does) then follows POST /admin/clock.
 * Node's server would otherwise write the machine's time. A Response whose headers are immutable is copied.
 */
export function withClockDate(response: Response, nowMs: number): Response {
  const date = new Date(nowMs).toUTCString();
  try {
    response.headers.set("date", date);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set("date", date);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
