import "server-only";
import { getEventSink } from "@/lib/events/sink";
import { getStore } from "@/lib/store";
import { isShuttingDown } from "./shutdown";

/** How long readiness waits for the store or Redis before it counts them as down. */
export const READINESS_TIMEOUT_MS = 2_000;

export type Check = { ok: true; ms: number } | { ok: false; ms: number; error: string } | { ok: true; skipped: string };

export interface Readiness {
  ready: boolean;
  /** SIGTERM received: the instance finishes what it has and takes nothing new. */
  shuttingDown: boolean;
  checks: { store: Check; redis: Check };
}

async function timed(what: string, probe: () => Promise<void>): Promise<Check> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    // The store's own message names where it is and what to fix (never a password); others, their message.
    const message = error instanceof Error ? error.message : "unknown error";
    return { ok: false, ms: Date.now() - started, error: message.slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance should be sent requests (GET /api/ready): its store answers a query, Redis (with
 * REDIS_URL) answers PING, and it is not shutting down. Both are asked at once, each for at most
 * READINESS_TIMEOUT_MS, so a load balancer's check never hangs on a dead peer.
 */
export async function readiness(): Promise<Readiness> {
  const sink = getEventSink();
  const ping = sink.ping?.bind(sink);
  const [store, redis] = await Promise.all([
    timed("the store", async () => (await getStore()).ping()),
    ping ? timed("Redis", ping) : Promise.resolve<Check>({ ok: true, skipped: "REDIS_URL is not set" }),
  ]);
  const shuttingDown = isShuttingDown();
  return { ready: store.ok && redis.ok && !shuttingDown, shuttingDown, checks: { store, redis } };
}
