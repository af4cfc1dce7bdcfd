import { createHash } from "node:crypto";
import { processSingleton } from "@/lib/process-singleton";

/** Open event streams one browser session may hold: a few tabs of /events. */
export const MAX_STREAMS_PER_SESSION = 6;
/** Sessions without an installation see only url_verification requests; together they get this many. */
export const MAX_ANONYMOUS_STREAMS = 24;
/** Open event streams one server process holds at most, whoever opens them. */
export const MAX_STREAMS_PER_PROCESS = 500;
/** What a refused viewer is told to wait before trying again. */
export const STREAM_RETRY_AFTER_S = 15;

export type StreamAdmission = { ok: true; release: () => void } | { ok: false; full: "session" | "process" };

/**
 * Counts the open event streams, per session and for the whole process, so that viewers cannot exhaust
 * the server by opening more. A session is named by its installations (see sessionStreamKey).
 */
export class StreamLimits {
  private open = 0;
  private readonly bySession = new Map<string, number>();

  constructor(
    private readonly perSession = MAX_STREAMS_PER_SESSION,
    private readonly anonymous = MAX_ANONYMOUS_STREAMS,
    private readonly perProcess = MAX_STREAMS_PER_PROCESS,
  ) {}

  admit(sessionKey: string | null): StreamAdmission {
    const key = sessionKey ?? "";
    const held = this.bySession.get(key) ?? 0;
    if (held >= (sessionKey === null ? this.anonymous : this.perSession)) return { ok: false, full: "session" };
    if (this.open >= this.perProcess) return { ok: false, full: "process" };
    this.open++;
    this.bySession.set(key, held + 1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        const left = (this.bySession.get(key) ?? 1) - 1;
        if (left > 0) this.bySession.set(key, left);
        else this.bySession.delete(key);
      },
    };
  }

  get openStreams(): number {
    return this.open;
  }
}

/**
 * A browser session's name for counting its streams: its installations, each with the moment it was
 * installed in that browser. Both come from sealed cookies, so a session cannot pass for another, and
 * they survive token refreshes. Null for a session without installations.
 */
export function sessionStreamKey(installations: ReadonlyArray<{ id: string; installedAt: number }>): string | null {
  if (installations.length === 0) return null;
  const names = installations.map((i) => `${i.id}@${i.installedAt}`).sort();
  return createHash("sha256").update(names.join("\n")).digest("base64url");
}

/** The process's stream limits, shared by every route bundle like the feed. */
export function getStreamLimits(): StreamLimits {
  return processSingleton("eventStreamLimits", () => new StreamLimits());
}
