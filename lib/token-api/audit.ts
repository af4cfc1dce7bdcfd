import "server-only";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { getStore } from "@/lib/store";
import type { StoreTokenApiUse } from "@/lib/store";

/** How long audited uses wait to be written together (one transaction for many answers). */
const AUDIT_FLUSH_MS = 200;
const AUDIT_BATCH = 500;
/** The audit keeps 30 days of uses; older ones are forgotten, at most once an hour per process. */
export const AUDIT_KEPT_MS = 30 * 24 * 3600 * 1000;
const PRUNE_EVERY_MS = 3600 * 1000;

interface AuditBuffer {
  pending: StoreTokenApiUse[];
  timer: NodeJS.Timeout | null;
  prunedAt: number;
  flushing: Promise<void>;
}

const auditBuffer = () => processSingleton("tokenApiAudit", (): AuditBuffer => ({ pending: [], timer: null, prunedAt: 0, flushing: Promise.resolve() }));

/**
 * Every use is audited: kept in this process for at most AUDIT_FLUSH_MS, then written with the others of
 * that moment in one transaction (a write per answer would make the store the token API's bottleneck). A
 * process killed in that moment loses those entries, never a token.
 */
export function audit(use: StoreTokenApiUse): void {
  const buffer = auditBuffer();
  buffer.pending.push(use);
  if (buffer.pending.length >= AUDIT_BATCH) void flushAudit();
  else buffer.timer ??= setTimeout(() => void flushAudit(), AUDIT_FLUSH_MS);
}

/** Writes what is waiting (after any flush under way); resolves once it is in the store. */
export function flushAudit(): Promise<void> {
  const buffer = auditBuffer();
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = null;
  const batch = buffer.pending.splice(0);
  buffer.flushing = buffer.flushing.then(async () => {
    if (batch.length === 0) return;
    const store = await getStore();
    if (Date.now() - buffer.prunedAt > PRUNE_EVERY_MS) {
      buffer.prunedAt = Date.now();
      await store.apiKeys.pruneUses(Date.now() - AUDIT_KEPT_MS).catch(() => 0);
    }
    // One use the store cannot take must not sink the others of its moment (a batch is one transaction):
    // after a failed batch each use is written alone, and one that still fails is written without what a
    // request chose (its team id, user id and error code), so the audit keeps that it was asked, by which key.
    const failed = await store.apiKeys.recordUses(batch).then(
      () => false,
      () => true,
    );
    if (!failed) return;
    let lost = 0;
    for (const use of batch) {
      const written = await store.apiKeys
        .recordUses([use])
        .catch(() => store.apiKeys.recordUses([withoutRequestedText(use)]))
        .then(
          () => true,
          () => false,
        );
      if (!written) lost++;
    }
    if (lost > 0) logger.warn({ uses: lost }, "token API uses not audited");
  });
  return buffer.flushing;
}

/** A use with only what the console itself decided: the key, the kind, the answer, the time. */
function withoutRequestedText(use: StoreTokenApiUse): StoreTokenApiUse {
  const { userId: _userId, error: _error, installationId: _installationId, ...rest } = use;
  return { ...rest, teamId: UNRECORDABLE_TEAM };
}

/** What the audit says of a team id that could not be recorded as asked. */
const UNRECORDABLE_TEAM = "(unrecordable)";
