import "server-only";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import type { InstallationRecord } from "@/lib/installations/record";
import { saveInstallation } from "@/lib/installations/repository";
import { fromStoreInstallation } from "@/lib/installations/store-mapping";
import { getStore } from "@/lib/store";
import { NOBODY } from "@/lib/installations/user-tokens";
import { withBotId } from "@/lib/installations/bot-identity";
import { withUpstreamInstance } from "@/lib/installations/upstream-instance";
import { cappedExpiry } from "@/lib/installations/universal/token-lifetime";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { needsReinstallError } from "@/lib/installations/rotation/refresh-errors";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { describeUpstream } from "@/lib/platform/platform-time";
import type { StoreApiKey, StoreToken } from "@/lib/store";

/**
 * What the token API answers for one installation and token kind (serve.ts checks who asks first): the
 * token, refreshed first when it would not last the margin, never said to live past the platform's lifetime.
 */

/** The installation's record acting with the token asked for: the bot's, or this person's user token. */
export function actingFor(record: InstallationRecord, kind: "bot" | "user", userId: string | undefined): InstallationRecord {
  if (kind === "bot") return record;
  const tokens = record.userTokens ?? {};
  // A user token stored before tokens were per person is the last installer's (user-tokens.ts).
  const holder = userId && tokens[userId] ? userId : userId === record.authedUserId && tokens[NOBODY] ? NOBODY : undefined;
  if (holder === undefined) throw new AppError("unknown_user_token");
  return { ...record, user: tokens[holder]!, userHolder: holder };
}

export interface TokenAnswer {
  ok: true;
  team_id: string;
  installation_id: string;
  kind: "bot" | "user";
  user_id: string | null;
  access_token: string;
  /** Epoch seconds, the platform's time; null for a long-lived token. */
  expires_at: number | null;
  expires_in: number | null;
  scopes: string[];
  /** Whether this request refreshed it (it would have expired within the margin). */
  refreshed: boolean;
  /** The token is valid for at least this long (TOKEN_API_MARGIN_S), for a rotating one. */
  margin_s: number;
  /** The bot's user (U…) and the bot (B…): what Bolt's directMention and ignoreSelf compare; null when unknown. */
  bot_user_id: string | null;
  bot_id: string | null;
  /** The organisation (E…) of an Enterprise Grid workspace, and whether the app is installed organisation-wide. */
  enterprise_id: string | null;
  is_enterprise_install: boolean;
}

export async function tokenFor(id: string, kind: "bot" | "user", userId: string | undefined, key: StoreApiKey): Promise<TokenAnswer> {
  // The platform's time as last heard (asked again when the upstream has said nothing for a while).
  const runtime = getRotationRuntime();
  await describeUpstream(runtime);
  const { marginS } = getConfig().tokenApi;
  const store = await getStore();
  // The cache's own frozen record, not a copy: nothing here changes it (a changed record is a new object).
  const stored = await store.installations.get(id, { shared: true });
  if (!stored) throw new AppError("unknown_installation");
  let record = actingFor(await upToDate(fromStoreInstallation(stored, [], false, { holder: undefined }), runtime), kind, userId);
  if (record.state === "needs_reinstall") throw needsReinstallError(record);
  let token = record[kind];
  if (!token) throw new AppError(kind === "user" ? "unknown_user_token" : "no_token");
  let refreshed = false;
  const now = runtime.now();
  // A token that would not last the margin (or that was revoked, while its refresh token can renew it) is refreshed first.
  if (token.refreshToken && (token.revoked || (token.expiresAt !== undefined && token.expiresAt - now < marginS * 1000))) {
    const outcome = await refreshInstallationToken(record, kind, runtime, { reason: "proactive", by: `the token API (key ${key.name})` });
    if (outcome.outcome === "needs_reinstall") {
      await saveInstallation(outcome.installation).catch(() => {});
      throw outcome.error;
    }
    record = outcome.installation;
    token = record[kind]!;
    refreshed = true;
  }
  if (token.revoked) throw needsReinstallError(record);
  return tokenAnswer(record, token, {
    kind,
    userId: kind === "user" ? record.userHolder || record.authedUserId || null : null,
    refreshed,
    marginS,
    at: runtime.now(),
  });
}

/** What an answer says of the installation: the same fields in the store's record and the console's. */
export type AnsweredInstallation = Pick<InstallationRecord, "id" | "team" | "botUserId" | "botId" | "enterprise" | "isEnterpriseInstall">;

/**
 * The answer for `token` of `record` at `at` (the platform's time): tokenFor's, and the warm path's from the
 * cache's record (warm.ts), so both answer alike.
 */
export function tokenAnswer(
  record: AnsweredInstallation,
  token: Pick<StoreToken, "value" | "expiresAt" | "scopes">,
  answer: { kind: "bot" | "user"; userId: string | null; refreshed: boolean; marginS: number; at: number },
): TokenAnswer {
  return {
    ok: true,
    team_id: record.team.id,
    installation_id: record.id,
    kind: answer.kind,
    user_id: answer.userId,
    access_token: token.value,
    ...expiryAt(token, answer.at),
    scopes: token.scopes,
    refreshed: answer.refreshed,
    margin_s: answer.marginS,
    bot_user_id: record.botUserId ?? null,
    bot_id: record.botId ?? null,
    enterprise_id: record.enterprise?.id ?? null,
    is_enterprise_install: record.isEnterpriseInstall ?? false,
  };
}

/** What an answer says of the token's expiry at `at` (the platform's time): the two fields that change from one second to the next. */
export function expiryAt(token: Pick<StoreToken, "expiresAt">, at: number): Pick<TokenAnswer, "expires_at" | "expires_in"> {
  if (token.expiresAt === undefined) return { expires_at: null, expires_in: null };
  // Never more than the platform's lifetime from now: a platform clock that went back must not make a 12-hour token look like a 38-hour one.
  const expiresAt = cappedExpiry(token.expiresAt, at);
  return { expires_at: Math.floor(expiresAt / 1000), expires_in: Math.max(0, Math.floor((expiresAt - at) / 1000)) };
}

/**
 * The record once what the console learns of it lazily is learned: whether the emulator answering is the
 * one it was installed on (a reset or replaced one never issued its tokens: it needs reinstalling, and says
 * why), and its bot's id for a record made before the console kept it. Saved when that changed anything.
 */
export async function upToDate(read: InstallationRecord, runtime: ReturnType<typeof getRotationRuntime>): Promise<InstallationRecord> {
  const checked = await withBotId(await withUpstreamInstance(read, (fresh) => describeUpstream(runtime, fresh), "the token API", runtime.now()), runtime);
  return checked === read ? read : saveInstallation(checked, { readAs: read });
}
