import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { advanceEmulatorClock } from "@/lib/emulator-admin/client";
import type { Viewer } from "@/lib/viewer";
import { requireAdmin } from "@/lib/access/viewer";
import { AppError } from "@/lib/http/app-error";
import { platformClockFor } from "@/lib/platform";
import { getConsoleSession, type ConsoleSession } from "@/lib/session/console-session";
import type { InstallationView } from "@/lib/installations/universal/view";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { TOKEN_KINDS, type TokenKind } from "@/lib/installations/universal/token-kind";

/** POST /api/platform-clock: by how much, or to when (epoch ms, the platform's time). */
export const ClockMoveSchema = z.union([z.strictObject({ advance_s: z.number() }), z.strictObject({ to: z.number() })]);
export type ClockMove = z.infer<typeof ClockMoveSchema>;

export interface TokenChange {
  installation: string;
  token: TokenKind;
  masked: string;
}

/** What moving the clock changed, for the person who moved it. */
export interface ClockMoveAnswer {
  ok: true;
  /** The platform's time before and after (epoch ms). */
  from: number;
  to: number;
  movedS: number;
  /** Tokens the move expired: each is refreshed on its next call. */
  expired: TokenChange[];
  /** Tokens now within the refresh window: each is refreshed before its next use. */
  dueForRefresh: TokenChange[];
  /** What else went stale on the platform: authorization codes, pagination cursors, spent refresh tokens. */
  stale: string[];
  /** The session as it now is (expiries noted in the timelines), so every countdown follows at once. */
  session: ConsoleSession;
}

function describeDuration(seconds: number): string {
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

function tokenChanges(installations: InstallationView[], keep: (expiresAt: number) => boolean): TokenChange[] {
  return installations.flatMap((installation) =>
    installation.state !== "active" || installation.uninstalledAt !== null
      ? []
      : TOKEN_KINDS.flatMap((kind) => {
          const token = installation[kind];
          if (!token?.rotating || token.revoked || token.expiresAt === null || !keep(token.expiresAt)) return [];
          return [{ installation: installation.name, token: kind, masked: token.masked }];
        }),
  );
}

/**
 * Moves the emulator's clock forward (POST {base}/admin/clock, with the admin token) and says what that
 * changed. Only when the upstream says it is an emulator (the embedded one, or a standalone one through
 * PLATFORM_BASE_URL); the real platform's clock is not the console's to move.
 */
export async function movePlatformClock(viewer: Viewer, move: ClockMove): Promise<ClockMoveAnswer> {
  // Every workspace's tokens move with the clock: admins only (lib/access).
  requireAdmin(viewer, "move the emulator's clock: it moves every workspace's tokens at once");
  const runtime = getRotationRuntime();
  const about = await describeUpstream(runtime, true);
  const { upstream, refreshWindowS, upstreamTimeoutMs } = getConfig();
  if (!about.emulator) {
    throw new AppError("not_emulator", {
      message: `The upstream at ${upstream.baseUrl} does not say it is an emulator (GET {base}/.well-known/emulator), so its clock is the platform's own and cannot be moved.`,
    });
  }
  const from = runtime.now();
  const advanceS = "advance_s" in move ? move.advance_s : (move.to - from) / 1000;
  const leftS = about.maxOffsetS - about.offsetS;
  if (!Number.isFinite(advanceS) || advanceS <= 0) {
    throw new AppError("invalid_clock_move", {
      message: `The emulator's clock moves only forward: choose a time after the platform's ${new Date(from).toISOString()}.`,
    });
  }
  if (advanceS > leftS) {
    throw new AppError("invalid_clock_move", {
      message: `The emulator's clock may be at most ${about.maxOffsetS} s (ten years) ahead in all and is ${about.offsetS} s ahead: it can move ${Math.max(0, Math.floor(leftS))} s more. Its admin reset sets it back.`,
    });
  }
  const before = await getConsoleSession({ viewer });
  const sentAt = Date.now();
  // The upstream's own emulator, embedded or standalone (PLATFORM_BASE_URL): it said it is one above.
  const emulatorNow = await advanceEmulatorClock({ baseUrl: upstream.baseUrl, timeoutMs: upstreamTimeoutMs }, advanceS);
  platformClockFor(upstream.baseUrl).observeTime(emulatorNow, sentAt, Date.now());
  const movedBy = `clock moved +${describeDuration(advanceS)}`;
  const session = await getConsoleSession({ viewer, by: movedBy });
  const to = session.serverTime;
  const lifetimes = about.lifetimesS;
  const stale = [
    advanceS >= lifetimes.authorizationCode ? `authorization codes issued before the move (they live ${describeDuration(lifetimes.authorizationCode)})` : null,
    advanceS >= lifetimes.cursor
      ? `pagination cursors issued before the move (they live ${describeDuration(lifetimes.cursor)}): a walk starts again from the first page`
      : null,
    advanceS >= lifetimes.refreshGrace ? `refresh tokens already used (their grace period is ${lifetimes.refreshGrace} s)` : null,
  ].filter((line): line is string => line !== null);
  return {
    ok: true,
    from,
    to,
    movedS: Math.round(advanceS),
    expired: tokenChanges(before.installations, (expiresAt) => expiresAt > from && expiresAt <= to),
    dueForRefresh: tokenChanges(
      before.installations,
      (expiresAt) => expiresAt > to && expiresAt - to <= refreshWindowS * 1000 && expiresAt - from > refreshWindowS * 1000,
    ),
    stale,
    session,
  };
}
