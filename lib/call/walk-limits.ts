import { AppError } from "@/lib/http/app-error";
import { processSingleton } from "@/lib/process-singleton";

/**
 * Fetch all walks one browser session may run at once: a walk and a second one started before the first
 * ends (another tab, a changed parameter).
 */
export const MAX_WALKS_PER_SESSION = 2;
/**
 * Walks one server process runs at once, whoever starts them. With the embedded emulator each page is
 * answered by this process's own CPU, so this bounds how much of it walks can take from every other
 * request (docs/benchmarks.md, section h: /api/health under 20 walks).
 */
export const MAX_WALKS_PER_PROCESS = 20;
/** What a refused walk is told to wait before trying again: short walks end within seconds. */
export const WALK_RETRY_AFTER_S = 5;

/**
 * Counts the running walks, per session and for the whole process. A walk holds its place from the
 * moment it is admitted until its stream ends, is cancelled or fails; `release` may be called more than
 * once.
 */
export class WalkLimits {
  private running = 0;
  private readonly bySession = new Map<string, number>();

  constructor(
    private readonly perSession = MAX_WALKS_PER_SESSION,
    private readonly perProcess = MAX_WALKS_PER_PROCESS,
  ) {}

  /** A place for one more walk of `sessionKey`'s, or 429 too_many_walks with Retry-After. */
  admit(sessionKey: string): () => void {
    const held = this.bySession.get(sessionKey) ?? 0;
    if (held >= this.perSession) {
      throw new AppError("too_many_walks", {
        message: `This installation already has ${this.perSession} Fetch all walks running: wait for one to end, or cancel it.`,
        headers: { "Retry-After": String(WALK_RETRY_AFTER_S) },
      });
    }
    if (this.running >= this.perProcess) throw new AppError("too_many_walks", { headers: { "Retry-After": String(WALK_RETRY_AFTER_S) } });
    this.running++;
    this.bySession.set(sessionKey, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.bySession.get(sessionKey) ?? 1) - 1;
      if (left > 0) this.bySession.set(sessionKey, left);
      else this.bySession.delete(sessionKey);
    };
  }

  get runningWalks(): number {
    return this.running;
  }
}

/** The process's walk limits, shared by every route bundle. */
export function getWalkLimits(): WalkLimits {
  return processSingleton("fetchAllWalkLimits", () => new WalkLimits());
}
