import "server-only";
import { getEventSink } from "@/lib/events/sink";
import { getStore } from "@/lib/store";
import { isShuttingDown } from "./shutdown";

/** How long readiness waits for the store or Redis before it counts them as down. */
export const READINESS_TIMEOUT_MS = 2_000;

export type Check = { ok: true; ms: number; note?: string } | { ok: false; ms: number; error: string } | { ok: true; skipped: string };

export interface Readiness {
  ready: boolean;
  /** SIGTERM received: the instance finishes what it has and takes nothing new. */
  shuttingDown: boolean;
  /** `secrets`: whether every secret in the store opens with this server's keys, and which keys it still needs (its note). */
  checks: { store: Check; secrets: Check; redis: Check };
}

async function timed(what: string, probe: () => Promise<string | void>): Promise<Check> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const note = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} did not answer within ${READINESS_TIMEOUT_MS} ms`)), READINESS_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, ms: Date.now() - started, ...(note ? { note } : {}) };
  } catch (error) {
    // The store's own message names where it is and what to fix (never a password); others, their message.
    const message = error instanceof Error ? error.message : "unknown error";
    return { ok: false, ms: Date.now() - started, error: message.slice(0, 600) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this instance should be sent requests (GET /api/ready): its store answers a query and every secret
 * in it is sealed with a key this instance has, Redis (with REDIS_URL) answers PING, and it is not shutting
 * down. All are asked at once, each for at most READINESS_TIMEOUT_MS, so a load balancer's check never hangs
 * on a dead peer.
 */
export async function readiness(): Promise<Readiness> {
  const sink = getEventSink();
  const ping = sink.ping?.bind(sink);
  const [store, secrets, redis] = await Promise.all([
    timed("the store", async () => (await getStore()).ping()),
    // An instance that cannot open the stored secrets (ENCRYPTION_KEYS adopted without the old keys) serves only 503s.
    timed("the store's keys", async () => {
      const status = await (await getStore()).sealingStatus();
      if (status.missing.length > 0) throw new Error(status.summary);
      return status.summary;
    }),
    ping ? timed("Redis", ping) : Promise.resolve<Check>({ ok: true, skipped: "REDIS_URL is not set" }),
  ]);
  const shuttingDown = isShuttingDown();
  return { ready: store.ok && secrets.ok && redis.ok && !shuttingDown, shuttingDown, checks: { store, secrets, redis } };
}
