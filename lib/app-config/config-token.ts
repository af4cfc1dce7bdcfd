import "server-only";
import { z } from "zod";
import { AppError, isConsoleError } from "@/lib/http/app-error";
import { callMethod, maskToken, platformErrorCode, throwIfRateLimited, type PlatformCallResult } from "@/lib/platform";
import { deleteConfigToken, readConfigToken, withConfigTokenLock, writeConfigToken, type StoredConfigToken } from "./config-token-store";
import { configTokenOwner, type AppConfigRuntime } from "./runtime";
import type { ConfigTokenView } from "./universal/types";

/**
 * App configuration tokens: the pair a developer generates on the platform's "Your Apps" page to call the
 * App Manifest API. The access token lives 12 hours and the refresh token is single use
 * (tooling.tokens.rotate), so the console rotates before the access token expires, never sends a refresh
 * token twice, and asks for a new paste when the platform refuses the refresh token.
 */

const RotateAnswer = z.object({
  ok: z.literal(true),
  token: z.string().regex(/^xoxe\.xoxp-/),
  refresh_token: z.string().regex(/^xoxe-/),
  team_id: z.string().optional(),
  user_id: z.string().optional(),
  iat: z.number(),
  exp: z.number(),
});

/** Answers that mean the access token no longer works; a rotation may mend them. */
const DEAD_TOKEN = new Set(["token_expired", "invalid_auth", "token_revoked"]);

export function toConfigTokenView(stored: StoredConfigToken): ConfigTokenView {
  return {
    maskedToken: maskToken(stored.token),
    maskedRefreshToken: maskToken(stored.refreshToken),
    expiresAt: stored.expiresAt,
    rotatedAt: stored.rotatedAt,
    teamId: stored.teamId ?? null,
    userId: stored.userId ?? null,
  };
}

function refused(reason: string): AppError {
  return new AppError("config_token_refused", { message: `${reason} Paste a new app configuration token (generate one on your Your Apps page).` });
}

/** tooling.tokens.rotate with this refresh token: the platform's answer, or why it refused. */
async function callRotate(refreshToken: string, runtime: AppConfigRuntime): Promise<StoredConfigToken> {
  const result = await callMethod({
    baseUrl: runtime.upstream.baseUrl,
    method: "tooling.tokens.rotate",
    params: { refresh_token: refreshToken },
    timeoutMs: runtime.timeoutMs,
  });
  throwIfRateLimited("tooling.tokens.rotate", result);
  const code = platformErrorCode(result);
  if (code === "invalid_refresh_token") {
    throw refused("The platform refused the configuration refresh token (invalid_refresh_token): it was used already, or revoked.");
  }
  const answer = RotateAnswer.safeParse(result.body);
  if (!answer.success) {
    throw new AppError("platform_error", { message: `The platform answered tooling.tokens.rotate with ${code ?? `HTTP ${result.status}`}.` });
  }
  const rotatedAt = runtime.now();
  const { token, refresh_token, team_id, user_id, iat, exp } = answer.data;
  // Its lifetime, not its exp: the platform's clock need not agree with this server's.
  return {
    token,
    refreshToken: refresh_token,
    expiresAt: rotatedAt + Math.max(0, exp - iat) * 1000,
    rotatedAt,
    ...(team_id ? { teamId: team_id } : {}),
    ...(user_id ? { userId: user_id } : {}),
  };
}

/**
 * Rotates the kept pair, once whoever asks: under the pair's refresh lock the pair is read again, and when
 * another request rotated it meanwhile (its refresh token is no longer the one this request saw) that new
 * pair is the answer, so a single-use refresh token is never sent twice. The store always holds the newest
 * pair, so nothing else needs keeping: no rotation result outlives the request that made it. A refused
 * refresh token removes the pair (it can never work again).
 */
async function rotateStored(seen: StoredConfigToken, runtime: AppConfigRuntime): Promise<StoredConfigToken> {
  const owner = configTokenOwner(runtime);
  return withConfigTokenLock(owner, async () => {
    const current = await readConfigToken(owner);
    if (!current) throw new AppError("config_token_required", { message: "The app configuration token was forgotten meanwhile: paste one again." });
    if (current.refreshToken !== seen.refreshToken) return current;
    try {
      const next = await callRotate(current.refreshToken, runtime);
      await writeConfigToken(owner, next);
      return next;
    } catch (error) {
      if (isConsoleError(error, "config_token_refused")) await deleteConfigToken(owner);
      throw error;
    }
  });
}

/**
 * A pasted pair: rotated at once, so the console knows when its access token expires and that the refresh
 * token works. A pasted refresh token goes to the platform itself, never to a kept rotation result: it can
 * come from anywhere (a clipboard, a chat, a ticket), and only the platform knows whether it is still good.
 * Its refusal is final, and a pair kept before it stays as it was.
 */
export async function pasteConfigToken(token: string, refreshToken: string, runtime: AppConfigRuntime): Promise<ConfigTokenView> {
  if (token === refreshToken) throw new AppError("invalid_config_token");
  const stored = await callRotate(refreshToken, runtime);
  // Under the lock, so that a rotation of the pair it replaces cannot write over it afterwards.
  const owner = configTokenOwner(runtime);
  await withConfigTokenLock(owner, () => writeConfigToken(owner, stored));
  return toConfigTokenView(stored);
}

export async function rotateConfigTokenNow(runtime: AppConfigRuntime): Promise<ConfigTokenView> {
  const stored = await readConfigToken(configTokenOwner(runtime));
  if (!stored) throw new AppError("config_token_required", { message: "No app configuration token is kept: paste one first." });
  return toConfigTokenView(await rotateStored(stored, runtime));
}

export async function currentConfigTokenView(runtime: AppConfigRuntime): Promise<ConfigTokenView | null> {
  const stored = await readConfigToken(configTokenOwner(runtime));
  return stored ? toConfigTokenView(stored) : null;
}

/** DELETE /api/app-config/token: the pair forgets, the person's own. */
export async function forgetConfigToken(runtime: AppConfigRuntime): Promise<void> {
  await deleteConfigToken(configTokenOwner(runtime));
}

/**
 * A call with the configuration token, kept fresh: rotated first when it expires within the refresh window,
 * and rotated and retried once when the platform still says it is dead (its clock ran ahead of ours).
 */
export async function callWithConfigToken(runtime: AppConfigRuntime, call: (token: string) => Promise<PlatformCallResult>): Promise<PlatformCallResult> {
  let stored = await readConfigToken(configTokenOwner(runtime));
  if (!stored) throw new AppError("config_token_required");
  if (stored.expiresAt - runtime.now() <= runtime.refreshWindowS * 1000) stored = await rotateStored(stored, runtime);
  let result = await call(stored.token);
  const code = platformErrorCode(result);
  if (code && DEAD_TOKEN.has(code)) {
    stored = await rotateStored(stored, runtime);
    result = await call(stored.token);
  }
  const after = platformErrorCode(result);
  if (after && DEAD_TOKEN.has(after)) throw refused(`The platform does not accept the configuration token (${after}), even after rotating it.`);
  if (after === "not_allowed_token_type") throw refused("The pasted token is not an app configuration token (not_allowed_token_type).");
  return result;
}
