import "server-only";
import { getConfig } from "@/lib/config";
import { processSingleton } from "@/lib/process-singleton";
import { InMemoryRefreshCoordinator, REFRESH_RECOVERY_WINDOW_MS, REFRESH_RESULT_TTL_MS, type RefreshCoordinator } from "./refresh-coordinator";
import { RedisRefreshCoordinator } from "./redis-refresh-coordinator";

/**
 * The process's coordinator, shared by every route bundle like the event sink: Redis when REDIS_URL is set
 * (several instances), otherwise in memory (one instance).
 */
export function getRefreshCoordinator(): RefreshCoordinator {
  return processSingleton("refreshCoordinator", createRefreshCoordinator);
}

function createRefreshCoordinator(): RefreshCoordinator {
  const config = getConfig();
  if (!config.redisUrl) return new InMemoryRefreshCoordinator();
  return new RedisRefreshCoordinator({
    url: config.redisUrl,
    passwords: config.sessionPasswords,
    resultTtlMs: REFRESH_RESULT_TTL_MS,
    // A refresh is one upstream call, bounded by the upstream timeout, or, when its answer is lost, a
    // recovery bounded by its window: the lock outlives both with room.
    lockTtlMs: config.upstreamTimeoutMs + REFRESH_RECOVERY_WINDOW_MS + 5_000,
  });
}
