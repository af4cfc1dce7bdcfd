import { processSingleton } from "@/lib/process-singleton";

/** Open event streams one signed-in person may hold: a few tabs of /events. */
export const MAX_STREAMS_PER_SESSION = 6;
/**
 * Open event streams one client address may hold, whatever its sessions: scripted installs make sessions
 * at will (84 of them × 6 streams once filled the process), an address is harder to come by. Room for an
 * office behind one NAT with a few tabs each.
 */
export const MAX_STREAMS_PER_ADDRESS = 30;
/** Sessions without an installation see only url_verification requests: a session's share per address… */
export const MAX_ANONYMOUS_STREAMS_PER_ADDRESS = 6;
/** …and this share of the process together, so that the rest is kept for sessions with installations. */
export const MAX_ANONYMOUS_STREAMS = 100;
/** Open event streams one server process holds at most, whoever opens them. */
export const MAX_STREAMS_PER_PROCESS = 500;
/** What a refused viewer is told to wait before trying again. */
export const STREAM_RETRY_AFTER_S = 15;

export interface StreamBounds {
  perSession: number;
  perAddress: number;
  anonymousPerAddress: number;
  anonymous: number;
  perProcess: number;
}

export const DEFAULT_STREAM_BOUNDS: StreamBounds = {
  perSession: MAX_STREAMS_PER_SESSION,
  perAddress: MAX_STREAMS_PER_ADDRESS,
  anonymousPerAddress: MAX_ANONYMOUS_STREAMS_PER_ADDRESS,
  anonymous: MAX_ANONYMOUS_STREAMS,
  perProcess: MAX_STREAMS_PER_PROCESS,
};

/** Which bound a refused stream met: its session's, its address's, the anonymous sessions' share, or the process's. */
export type StreamAdmission = { ok: true; release: () => void } | { ok: false; full: "session" | "address" | "anonymous" | "process" };

/** A count per key that forgets a key at zero, so that it holds only what is open. */
class Counts {
  private readonly counts = new Map<string, number>();
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  add(key: string, delta: 1 | -1): void {
    const next = this.get(key) + delta;
    if (next > 0) this.counts.set(key, next);
    else this.counts.delete(key);
  }
}

/**
 * Counts the open event streams, per session, per client address and for the whole process, so that
 * viewers cannot exhaust the server by opening more. A session is the signed-in person (personStreamKey);
 * viewers who see no installation share a smaller pool, per address and in all, which leaves
 * the rest of the process's streams to sessions with installations.
 */
export class StreamLimits {
  private open = 0;
  private anonymousOpen = 0;
  private readonly bySession = new Counts();
  private readonly byAddress = new Counts();
  private readonly anonymousByAddress = new Counts();
  private readonly bounds: StreamBounds;

  constructor(bounds: Partial<StreamBounds> = {}) {
    this.bounds = { ...DEFAULT_STREAM_BOUNDS, ...bounds };
  }

  /**
   * `sessionKey`: the person's (personStreamKey), held to a session's share; null counts by address only.
   * `anonymous`: the viewer sees no installation's events (only url_verification requests).
   */
  admit(sessionKey: string | null, address: string, anonymous = sessionKey === null): StreamAdmission {
    const b = this.bounds;
    if (anonymous) {
      if (this.anonymousByAddress.get(address) >= b.anonymousPerAddress) return { ok: false, full: "session" };
    } else if (sessionKey !== null && this.bySession.get(sessionKey) >= b.perSession) return { ok: false, full: "session" };
    if (this.byAddress.get(address) >= b.perAddress) return { ok: false, full: "address" };
    if (anonymous && this.anonymousOpen >= b.anonymous) return { ok: false, full: "anonymous" };
    if (this.open >= b.perProcess) return { ok: false, full: "process" };

    const count = (delta: 1 | -1) => {
      this.open += delta;
      this.byAddress.add(address, delta);
      if (anonymous) {
        this.anonymousOpen += delta;
        this.anonymousByAddress.add(address, delta);
      } else if (sessionKey !== null) this.bySession.add(sessionKey, delta);
    };
    count(1);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        count(-1);
      },
    };
  }

  get openStreams(): number {
    return this.open;
  }
}

/**
 * A person's name for counting their streams: who signed in (the platform's team and user ids, from the
 * sealed sign-in cookie, so a person cannot pass for another). Null without sign-in (AUTH_MODE=none): the
 * console has one operator, held to its address's share and the process's.
 */
export function personStreamKey(person: { teamId: string; userId: string } | undefined | null): string | null {
  return person ? `${person.teamId}:${person.userId}` : null;
}

/** The process's stream limits, shared by every route bundle like the feed. */
export function getStreamLimits(): StreamLimits {
  return processSingleton("eventStreamLimits", () => new StreamLimits());
}
