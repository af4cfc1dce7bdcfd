import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf } from "./backend";
import type { StoreContext } from "./context";
import { SEALED_COLUMNS, sealedKeyId } from "./sealed-columns";

/** How many secrets one key seals now, and where the key comes from (null: a key this server does not have). */
export interface KeyUse {
  keyId: string;
  source: string | null;
  secrets: number;
}

/**
 * Which keys the store's secrets are sealed with, as readiness and the start-up log tell the operator: whether
 * every secret opens, whether older keys are still needed (the background re-seal moves what they sealed to the
 * current key), and which keys seal nothing any more, so may be removed.
 */
export interface SealingStatus {
  current: { keyId: string; source: string };
  /** Keys this server has, other than the current one, that still seal something: keep them for now. */
  older: KeyUse[];
  /** Keys this server does not have that sealed something: those secrets cannot be opened. */
  missing: KeyUse[];
  /** Keys this server has that seal nothing: the store no longer needs them. */
  unused: string[];
  /** What the operator reads: one sentence, with what to do. */
  summary: string;
}

const count = (uses: KeyUse[]) => uses.reduce((n, use) => n + use.secrets, 0);

export async function sealingStatus(ctx: StoreContext): Promise<SealingStatus> {
  const { sealer } = ctx;
  const perColumn = SEALED_COLUMNS.map(
    (column) => sql`select ${sealedKeyId(column)} as key_id, count(*) as n from ${column.table} where ${column.sealed} is not null group by 1`,
  );
  const rows = await rowsOf<{ key_id: string; n: number | string }>(
    ctx.db,
    sql`select key_id, sum(n) as n from (${sql.join(perColumn, sql` union all `)}) as sealed group by key_id`,
  );
  const counts = new Map(rows.map((row) => [row.key_id, Number(row.n)]));
  const [currentKey] = sealer.keys;
  const current = { keyId: currentKey!.id, source: currentKey!.source };
  const older = sealer.keys.slice(1).flatMap((k) => (counts.get(k.id) ? [{ keyId: k.id, source: k.source, secrets: counts.get(k.id)! }] : []));
  const missing = [...counts].filter(([id]) => !sealer.hasKey(id)).map(([keyId, secrets]) => ({ keyId, source: null, secrets }));
  const unused = sealer.keys.slice(1).flatMap((k) => (counts.get(k.id) ? [] : [k.source]));
  return { current, older, missing, unused, summary: describe(current, older, missing, unused) };
}

function describe(current: SealingStatus["current"], older: KeyUse[], missing: KeyUse[], unused: string[]): string {
  const sentences: string[] = [];
  if (missing.length > 0) {
    sentences.push(
      `${count(missing)} secret(s) in the store are sealed with keys this server does not have (key id ${missing.map((m) => m.keyId).join(", ")}), so they cannot be opened: ` +
        "give this server the key that sealed them again (its ENCRYPTION_KEYS entry, after the newest, or the SESSION_PASSWORD it was derived from), or reinstall the installations that hold them.",
    );
  }
  if (older.length > 0) {
    sentences.push(
      `${count(older)} secret(s) are still sealed with older keys (${older.map((o) => o.source).join(", ")}) and are being re-sealed with ${current.source}: keep those keys until this says none is left.`,
    );
  }
  if (missing.length === 0 && older.length === 0) sentences.push(`Every secret in the store is sealed with ${current.source} (key id ${current.keyId}).`);
  if (unused.length > 0 && older.length === 0) sentences.push(`The store no longer needs ${unused.join(", ")}: removing it loses nothing of the store.`);
  return sentences.join(" ");
}
