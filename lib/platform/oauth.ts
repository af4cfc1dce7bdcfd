import { z } from "zod";
import { callMethod, type PlatformCallResult, type PlatformTransport } from "./call-method";
import { AppError } from "@/lib/http/app-error";
import { PlatformError } from "./errors";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export interface IssuedToken {
  accessToken: string;
  /** Present for rotating tokens (xoxe-…). */
  refreshToken?: string;
  /** Absent for long-lived tokens. */
  expiresInS?: number;
  scopes: string[];
}

/** An oauth.v2.access or oauth.v2.exchange answer, turned into the console's shape. */
export interface TokenGrant {
  appId?: string;
  team?: { id: string; name: string };
  enterprise?: { id: string; name: string };
  /** An organisation-wide install (Enterprise Grid): the platform names the organisation and no team. */
  isEnterpriseInstall?: boolean;
  botUserId?: string;
  authedUserId?: string;
  bot?: IssuedToken;
  user?: IssuedToken;
  incomingWebhook?: { url: string; channel: string; channelId: string; configurationUrl?: string };
}

export interface OAuthCallOptions {
  baseUrl: string;
  credentials: ClientCredentials;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The embedded emulator's own fetch, when the platform lives in this process (call-method.ts). */
  transport?: PlatformTransport;
}

const optionalString = z
  .string()
  .nullish()
  .transform((v) => v ?? undefined);
const named = z
  .object({
    id: z.string(),
    name: z
      .string()
      .nullish()
      .transform((v) => v ?? ""),
  })
  .nullish()
  .transform((v) => v ?? undefined);
const tokenFields = {
  access_token: optionalString,
  refresh_token: optionalString,
  expires_in: z
    .number()
    .nullish()
    .transform((v) => v ?? undefined),
  token_type: optionalString,
  scope: optionalString,
};
const GrantSchema = z.object({
  ok: z.literal(true),
  ...tokenFields,
  app_id: optionalString,
  bot_user_id: optionalString,
  team: named,
  enterprise: named,
  is_enterprise_install: z
    .boolean()
    .nullish()
    .transform((v) => v ?? undefined),
  authed_user: z.object({ id: optionalString, ...tokenFields }).nullish(),
  incoming_webhook: z.object({ url: z.string(), channel: optionalString, channel_id: optionalString, configuration_url: optionalString }).nullish(),
});

function splitScopes(scope: string | undefined): string[] {
  return (scope ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function issued(fields: { access_token?: string; refresh_token?: string; expires_in?: number; scope?: string }): IssuedToken | undefined {
  if (!fields.access_token) return undefined;
  return {
    accessToken: fields.access_token,
    ...(fields.refresh_token ? { refreshToken: fields.refresh_token } : {}),
    ...(fields.expires_in !== undefined ? { expiresInS: fields.expires_in } : {}),
    scopes: splitScopes(fields.scope),
  };
}

/** Turns the platform's token answer (spec 2.1 and 2.2) into a TokenGrant. */
export function reshapeTokenGrant(body: unknown): TokenGrant {
  // A surprising answer is the platform's fault, not the request's: a 502 that says so, never a 422.
  const parsed = GrantSchema.safeParse(body);
  if (!parsed.success) throw new AppError("upstream_bad_answer", { message: "The platform's token answer did not have the expected shape." });
  const g = parsed.data;
  const top = issued(g);
  // The top-level token is the bot's unless token_type says user (a refreshed or exchanged user token).
  const topIsUser = g.token_type === "user" || (top?.accessToken.includes("xoxp-") ?? false);
  const nested = g.authed_user ? issued(g.authed_user) : undefined;
  const grant: TokenGrant = {
    ...(g.app_id ? { appId: g.app_id } : {}),
    ...(g.team ? { team: g.team } : {}),
    ...(g.enterprise ? { enterprise: g.enterprise } : {}),
    ...(g.is_enterprise_install ? { isEnterpriseInstall: true } : {}),
    ...(g.bot_user_id ? { botUserId: g.bot_user_id } : {}),
    ...(g.authed_user?.id ? { authedUserId: g.authed_user.id } : {}),
  };
  if (top && !topIsUser) grant.bot = top;
  const user = topIsUser ? top : nested;
  if (user) grant.user = user;
  if (g.incoming_webhook) {
    grant.incomingWebhook = {
      url: g.incoming_webhook.url,
      channel: g.incoming_webhook.channel ?? "",
      channelId: g.incoming_webhook.channel_id ?? "",
      ...(g.incoming_webhook.configuration_url ? { configurationUrl: g.incoming_webhook.configuration_url } : {}),
    };
  }
  return grant;
}

async function tokenCall(
  method: string,
  options: OAuthCallOptions,
  params: Record<string, string>,
): Promise<{ grant: TokenGrant; result: PlatformCallResult }> {
  const result = await callMethod({
    baseUrl: options.baseUrl,
    method,
    params: { client_id: options.credentials.clientId, client_secret: options.credentials.clientSecret, ...params },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
  });
  if (!result.ok) throw new PlatformError(method, result);
  return { grant: reshapeTokenGrant(result.body), result };
}

/** The last step of the install: oauth.v2.access with the authorization code. */
export function exchangeAuthorizationCode(options: OAuthCallOptions & { code: string; redirectUri: string }) {
  return tokenCall("oauth.v2.access", options, { code: options.code, redirect_uri: options.redirectUri });
}

/** oauth.v2.access with grant_type=refresh_token: a new access token and a new (single-use) refresh token. */
export function refreshAccessToken(options: OAuthCallOptions & { refreshToken: string }) {
  return tokenCall("oauth.v2.access", options, { grant_type: "refresh_token", refresh_token: options.refreshToken });
}

/** oauth.v2.exchange: a long-lived token becomes an expiring one plus a refresh token; the original stops working. */
export function exchangeLongLivedToken(options: OAuthCallOptions & { token: string }) {
  return tokenCall("oauth.v2.exchange", options, { token: options.token });
}
