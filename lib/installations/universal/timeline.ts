import { z } from "zod";
import type { TokenKind } from "./token-kind";
import type { DeadTokenVerdict } from "./lifecycle";

/**
 * What happened to an installation's tokens, newest first: installed, tested (with the platform's answer),
 * refreshed (old masked token → new, why, and which request), revoked, exchanged, expired (and how the console
 * noticed), a failed refresh and why, reinstalled, uninstalled. The store keeps every entry (appended, never
 * rewritten: store.ts); it holds no secret: tokens appear only as maskToken() writes them (the kind prefix and
 * the last 4 characters), which the schema checks on every read. A view shows the newest
 * MAX_TIMELINE_ENTRIES, and pages older ones (GET /api/installations/{id}/timeline).
 */
export const MAX_TIMELINE_ENTRIES = 20;

/** Why a refresh happened: before a call near expiry, after the token expired, on request, or by another request. */
/** An uninstall's entry names every token it killed (each person's user token and refresh token too), up to this many. */
export const MAX_UNINSTALLED_TOKENS = 100;

export type RefreshReason = "proactive" | "on_expiry" | "requested" | "elsewhere" | "scheduled";

interface EntryBase {
  /** Epoch ms, by the server's clock. */
  at: number;
  /** The request or control that caused it: "GET /api/call/users.list", "Refresh button", … */
  by?: string;
  /** The person who did it: the member signed in (lib/access), or for an install the platform user who installed. Absent: the operator of a console without sign-in, or the console itself. */
  who?: { id: string; name?: string };
}

export type TimelineEntry = EntryBase &
  (
    | { type: "installed" | "reinstalled"; tokens: string[] }
    | { type: "tested"; token: TokenKind; masked: string; ok: boolean; error?: string; verdict?: DeadTokenVerdict }
    | { type: "found_dead"; token: TokenKind; masked: string; error: string; verdict: DeadTokenVerdict }
    | { type: "refreshed"; token: TokenKind; from: string; to: string; reason: RefreshReason }
    | { type: "refresh_failed"; token: TokenKind; masked: string; error: string; reinstall: boolean }
    | { type: "revoked"; token: TokenKind; masked: string; scope: "token" | "installation" }
    | { type: "revoke_failed"; token: TokenKind; masked: string; error: string }
    /** `dropped`: tokens of a dead authorization the exchange did not bring back (masked). */
    | { type: "exchanged"; token: TokenKind; from: string; to: string; dropped?: string[] }
    | { type: "exchange_failed"; token: TokenKind; masked: string; error: string }
    | { type: "expired"; token: TokenKind; masked: string; noticed: "clock" | "platform" }
    | { type: "uninstalled"; tokens: string[] }
    | { type: "uninstall_failed"; error: string }
    /** The emulator it was installed on (`was`) is not the one answering now (`now`): reset or replaced, its tokens gone with it. */
    | { type: "upstream_replaced"; was: string; now: string }
  );

/** A masked token as maskToken() writes it: a known prefix, an ellipsis, at most 4 characters. Never more. */
const MASKED = /^(xoxe\.xox[a-z]-|xox[a-z]-|xoxe-)?…[A-Za-z0-9]{0,4}$/;
const masked = z.string().regex(MASKED);
/** The platform's error codes and the console's own: snake_case words. */
const errorCode = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);
const kind = z.enum(["bot", "user"]);
/** An emulator's instance_id (/.well-known/emulator): printable, short, not a secret. */
const instanceId = z.string().regex(/^[\x21-\x7e]{1,100}$/);
const verdict = z.enum(["token_revoked", "needs_reinstall"]);

const base = {
  at: z.number(),
  by: z
    .string()
    .regex(/^[\x20-\x7e]{1,96}$/)
    .optional(),
  who: z
    .object({
      id: z.string().regex(/^[UW][A-Z0-9]{1,31}$/),
      // A display name: no control characters, bidirectional overrides or line breaks.
      name: z
        .string()
        .regex(/^[^\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]{1,80}$/u)
        .optional(),
    })
    .optional(),
};

export const timelineEntrySchema = z.discriminatedUnion("type", [
  z.object({ ...base, type: z.enum(["installed", "reinstalled"]), tokens: z.array(masked).max(4) }),
  z.object({ ...base, type: z.literal("tested"), token: kind, masked, ok: z.boolean(), error: errorCode.optional(), verdict: verdict.optional() }),
  z.object({ ...base, type: z.literal("found_dead"), token: kind, masked, error: errorCode, verdict }),
  z.object({
    ...base,
    type: z.literal("refreshed"),
    token: kind,
    from: masked,
    to: masked,
    reason: z.enum(["proactive", "on_expiry", "requested", "elsewhere", "scheduled"]),
  }),
  z.object({ ...base, type: z.literal("refresh_failed"), token: kind, masked, error: errorCode, reinstall: z.boolean() }),
  z.object({ ...base, type: z.literal("revoked"), token: kind, masked, scope: z.enum(["token", "installation"]) }),
  z.object({ ...base, type: z.literal("revoke_failed"), token: kind, masked, error: errorCode }),
  z.object({ ...base, type: z.literal("exchanged"), token: kind, from: masked, to: masked, dropped: z.array(masked).max(2).optional() }),
  z.object({ ...base, type: z.literal("exchange_failed"), token: kind, masked, error: errorCode }),
  z.object({ ...base, type: z.literal("expired"), token: kind, masked, noticed: z.enum(["clock", "platform"]) }),
  z.object({ ...base, type: z.literal("uninstalled"), tokens: z.array(masked).max(MAX_UNINSTALLED_TOKENS) }),
  z.object({ ...base, type: z.literal("uninstall_failed"), error: errorCode }),
  z.object({ ...base, type: z.literal("upstream_replaced"), was: instanceId, now: instanceId }),
]) satisfies z.ZodType<TimelineEntry>;

/**
 * A stored timeline, read leniently: an entry this version does not know (or that fails the masking check)
 * is dropped rather than making the whole installation unreadable.
 */
export const timelineSchema = z.array(z.unknown()).transform((entries) =>
  entries
    .flatMap((entry) => {
      const parsed = timelineEntrySchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, MAX_TIMELINE_ENTRIES),
);

/** An error code fit for the timeline: what the platform or the console named it, or `unknown_error`. */
export function timelineErrorCode(code: string | undefined | null): string {
  return code && /^[A-Za-z0-9_.:-]{1,64}$/.test(code) ? code : "unknown_error";
}

/** A `by` label fit for the timeline: printable ASCII, cut to 96 characters. */
export function timelineCause(by: string): string {
  return by.replace(/[^\x20-\x7e]/g, "?").slice(0, 96) || "unknown";
}

/** The timeline with `entry` first: the next save appends it to the store (store.ts). */
export function prependEntry(timeline: readonly TimelineEntry[] | undefined, entry: TimelineEntry): TimelineEntry[] {
  return [entry, ...(timeline ?? [])];
}
