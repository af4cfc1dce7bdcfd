import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { PURPOSE } from "./installations";
import { configTokens, installations, pastedWebhooks, refreshIntents, tokens } from "./schema";

/**
 * Every column that holds a sealed secret, with its row's key and its purpose (the GCM associated data): what
 * the key status counts and what the background re-seal walks. A sealed column added to the schema belongs here.
 */
export interface SealedColumn {
  table: PgTable;
  id: PgColumn;
  sealed: PgColumn;
  purpose: string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: installations, id: installations.id, sealed: installations.webhookUrlSealed, purpose: PURPOSE.webhookUrl },
  { table: tokens, id: tokens.id, sealed: tokens.valueSealed, purpose: PURPOSE.token },
  { table: tokens, id: tokens.id, sealed: tokens.refreshTokenSealed, purpose: PURPOSE.refreshToken },
  { table: refreshIntents, id: refreshIntents.id, sealed: refreshIntents.refreshTokenSealed, purpose: PURPOSE.intentRefreshToken },
  { table: pastedWebhooks, id: pastedWebhooks.id, sealed: pastedWebhooks.urlSealed, purpose: PURPOSE.pastedUrl },
  { table: configTokens, id: configTokens.id, sealed: configTokens.tokenSealed, purpose: PURPOSE.configToken },
  { table: configTokens, id: configTokens.id, sealed: configTokens.refreshTokenSealed, purpose: PURPOSE.configRefreshToken },
];

/** The id of the key that sealed a column's value: `v1.<key id>.<iv>.<body>`. */
export function sealedKeyId(column: SealedColumn): SQL<string> {
  return sql<string>`split_part(${column.sealed}, '.', 2)`;
}
