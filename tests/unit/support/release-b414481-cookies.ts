/**
 * Cookies as the previous release (b414481, before the store) sealed them: its sealing (lib/session/
 * sealed-cookie.ts's sealValue, and lib/app-config/config-token-store.ts's sealData, both iron-session with
 * the SESSION_PASSWORD list numbered newest-highest), its cookie names and lifetimes, and the shapes of what
 * it kept (lib/webhooks/store.ts, lib/webhooks/history.ts, lib/app-config/config-token-store.ts). Copied here,
 * not imported, so these stay what that release wrote whatever the console's code becomes.
 */
import { sealData } from "iron-session";

/** Its parseSessionPasswords: SESSION_PASSWORD split on commas and spaces, the first (newest) numbered highest. */
function releasePasswords(sessionPassword: string): Record<string, string> {
  const list = sessionPassword.split(/[\s,]+/).filter(Boolean);
  const passwords: Record<string, string> = {};
  list.forEach((password, i) => {
    passwords[String(list.length - i)] = password;
  });
  return passwords;
}

function seal(value: unknown, sessionPassword: string, ttlS: number): Promise<string> {
  return sealData(value as Record<string, unknown>, { password: releasePasswords(sessionPassword), ttl: ttlS });
}

export interface ReleasePastedWebhook {
  id: string;
  url: string;
  label: string;
  addedAt: number;
}

export interface ReleaseSendRecord {
  id: string;
  webhookId: string;
  webhookLabel: string;
  sentAt: number;
  preview: string;
  status: number;
  ok: boolean;
  result: string;
  durationMs: number | null;
}

export interface ReleaseConfigToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
  rotatedAt: number;
  teamId?: string;
  userId?: string;
}

/** `sb_webhooks` (`__Host-sb_webhooks` over https): the pasted webhooks, sealed for 30 days. */
export async function releasePastedWebhooksCookie(hooks: ReleasePastedWebhook[], sessionPassword: string, https = false): Promise<[string, string]> {
  return [`${https ? "__Host-" : ""}sb_webhooks`, await seal({ hooks }, sessionPassword, 30 * 24 * 3600)];
}

/** `sb_webhook_history`: the newest sends first, sealed for 7 days. */
export async function releaseSendHistoryCookie(entries: ReleaseSendRecord[], sessionPassword: string, https = false): Promise<[string, string]> {
  return [`${https ? "__Host-" : ""}sb_webhook_history`, await seal({ entries }, sessionPassword, 7 * 24 * 3600)];
}

/** `sb_appcfg`: the app configuration token pair, sealed for 30 days. */
export async function releaseConfigTokenCookie(pair: ReleaseConfigToken, sessionPassword: string, https = false): Promise<[string, string]> {
  return [`${https ? "__Host-" : ""}sb_appcfg`, await seal(pair, sessionPassword, 30 * 24 * 3600)];
}
