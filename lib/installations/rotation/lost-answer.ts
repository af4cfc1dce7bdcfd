import "server-only";
import { isUnknownOutcome } from "./refresh-errors";

/**
 * After a refresh whose answer was lost (a timeout, a dropped connection, a 5xx), the platform may well
 * have spent the refresh token. Within its grace period the same refresh token answers again with the
 * same pair, so the refresh goes on asking, in the background and holding the refresh lock, for this long
 * after its first attempt; its intent in the store lets another process finish it if this one dies.
 */
const REFRESH_RECOVERY_WINDOW_MS = 40_000;

const RECOVERY_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks again with the same refresh token until an answer comes, the platform refuses it for good, or the
 * recovery window closes. Each attempt may take longer than a console request may wait: nobody is
 * waiting for it but the next request.
 */
export async function recoverLostRefresh<T>(attempt: (timeoutMs: number) => Promise<T>, firstTimeoutMs: number, startedAt: number): Promise<T> {
  let lastError: unknown;
  for (const delay of [...RECOVERY_DELAYS_MS, ...Array<number>(8).fill(RECOVERY_DELAYS_MS.at(-1)!)]) {
    await sleep(delay);
    const left = startedAt + REFRESH_RECOVERY_WINDOW_MS - Date.now();
    if (left <= 0) break;
    try {
      return await attempt(Math.min(left, Math.max(3 * firstTimeoutMs, 15_000)));
    } catch (error) {
      if (!isUnknownOutcome(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}
