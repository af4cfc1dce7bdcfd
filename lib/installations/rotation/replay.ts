import "server-only";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { isPlatformError, maskToken } from "@/lib/platform";
import { RefreshLockTimeoutError, type Store, type StoreTimelineEntry, type StoreTokenKind } from "@/lib/store";
import { timelineErrorCode, type TimelineEntry } from "@/lib/installations/universal/timeline";
import { refreshLockKey } from "./lock";
import { refreshAtPlatform, toIssuedStoreToken } from "./refresh-call";
import type { RotationRuntime } from "./runtime";

/**
 * Replays the unsettled refresh intents younger than the grace period (of one installation's `kind` token,
 * or all): a refresher that stopped (kill -9, a lost machine) after the platform may have spent its refresh
 * token, before the new pair was stored. The platform answers the same refresh token again within its grace
 * period, and the pair is stored (settleRefresh never puts it over a newer one). Run under the refresh lock:
 * by every holder before it reads (so a waiter that took over from a dead holder finishes its refresh), and
 * at the first use of the store in a process (replayAtStart). A replay the platform refuses is settled as
 * failed and changes nothing else: the next refresh finds out for itself.
 */
export async function replayRefreshIntents(
  store: Store,
  runtime: RotationRuntime,
  installationId?: string,
  kind?: StoreTokenKind,
  userId?: string,
): Promise<number> {
  const intents = await store.intents.listUnsettled({
    startedAfter: Date.now() - runtime.refreshGraceS * 1000,
    ...(installationId ? { installationId } : {}),
  });
  let replayed = 0;
  for (const intent of intents) {
    if (kind && (intent.kind !== kind || (intent.userId ?? "") !== (userId ?? ""))) continue;
    const stored = await store.installations.get(intent.installationId, { fresh: true });
    if (!stored) continue;
    const appKey = stored.appKey === "legacy" ? "legacy" : "console";
    const before = intent.userId ? stored.people?.[intent.userId] : stored[intent.kind];
    try {
      const token = await refreshAtPlatform({ id: stored.id, appKey }, intent.kind, intent.refreshToken, before?.scopes ?? [], runtime, runtime.timeoutMs);
      const now = runtime.now();
      const entry: TimelineEntry = {
        at: now,
        type: "refreshed",
        token: intent.kind,
        from: maskToken(before?.value ?? ""),
        to: maskToken(token.value),
        reason: "elsewhere",
        by: "a refresh replayed after its process stopped",
      };
      const settled = await store.intents.settle({
        intentId: intent.id,
        settledAt: Date.now(),
        token: toIssuedStoreToken(token, now),
        timeline: [entry as unknown as StoreTimelineEntry],
      });
      logger.warn({ installation: intent.installationId, kind: intent.kind, outcome: settled.outcome }, "an unsettled refresh was replayed");
      replayed++;
    } catch (error) {
      const code = isPlatformError(error) ? error.platformCode : error instanceof AppError ? error.code : "unknown";
      await store.intents.settle({ intentId: intent.id, settledAt: Date.now(), failure: timelineErrorCode(code) });
      logger.warn({ installation: intent.installationId, kind: intent.kind, error: code }, "an unsettled refresh could not be replayed");
    }
  }
  return replayed;
}

/**
 * At the first use of the store in a process: every unsettled intent younger than the grace period is
 * replayed under its refresh lock (an intent whose lock another live instance holds is that instance's to
 * finish: after a bounded wait it is left to the next holder). Never throws: answers false when the store failed
 * on the way (start-up-replay.ts tries again).
 */
export async function replayAtStart(store: Store, runtime: RotationRuntime): Promise<boolean> {
  try {
    const intents = await store.intents.listUnsettled({ startedAfter: Date.now() - runtime.refreshGraceS * 1000 });
    const keys = new Map(intents.map((i) => [refreshLockKey(i.installationId, i.kind, i.userId), i] as const));
    for (const [key, intent] of keys) {
      await store
        .withRefreshLock(key, () => replayRefreshIntents(store, runtime, intent.installationId, intent.kind, intent.userId), {
          waitMs: runtime.timeoutMs + 1_000,
        })
        .catch((error: unknown) => {
          if (!(error instanceof RefreshLockTimeoutError)) throw error;
        });
    }
    if (await store.intents.pruneSettled(Date.now() - runtime.refreshGraceS * 1000)) logger.debug("settled refresh intents past the grace period forgotten");
    return true;
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.message : String(error) }, "replaying unsettled refreshes at start failed: each refresh replays its own");
    return false;
  }
}
