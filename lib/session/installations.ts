import "server-only";
import { AppError } from "@/lib/http/app-error";
import {
  callMethod,
  exchangeLongLivedToken,
  type HttpMethod,
  type ParamValue,
  type PlatformCallResult,
} from "@/lib/platform";
import { callWithFreshToken, reconcileWithKeptRefreshes, refreshInstallationToken } from "./freshness";
import { installationFromGrant, installationIdFor, tokenFingerprint, type AppKey, type Installation, type InstallationView, type TokenKind, toInstallationView } from "./installation";
import { findInstallation, listInstallations, MAX_INSTALLATIONS, removeInstallation, requireInstallation, saveInstallation } from "./installation-store";
import { getSessionRuntime } from "./runtime";
import { beforeCookiesSent } from "./sealed-cookie";

/** This request's installations, tokens included. Server-only: hand the browser toInstallationView(). */
export function getSessionInstallations(): Promise<Installation[]> {
  return listInstallations();
}

export async function getSessionInstallationViews(): Promise<InstallationView[]> {
  return (await listInstallations()).map(toInstallationView);
}

/**
 * Every installation write goes through here: never puts back a refresh token the coordinator knows was
 * replaced. The cookie is brought up to date twice: when written, and again just before the response
 * carries it, since another request (another tab, another instance) may refresh the other token kind
 * while this one goes on, for example during a slow call after its own refresh. The browser keeps
 * whichever cookie arrives last.
 */
async function save(installation: Installation): Promise<Installation> {
  const runtime = getSessionRuntime();
  const reconciled = await reconcileWithKeptRefreshes(installation, runtime);
  await saveInstallation(reconciled);
  await beforeCookiesSent(`installation:${reconciled.id}`, async () => {
    // Forgotten or uninstalled later in this request: nothing to bring back.
    if (!(await findInstallation(reconciled.id))) return;
    const latest = await reconcileWithKeptRefreshes(reconciled, runtime);
    if (latest !== reconciled) await saveInstallation(latest);
  });
  return reconciled;
}

/**
 * Writes the installation only when its tokens or state differ from what this request read, so a slow
 * request that refreshed nothing never puts back tokens a newer request replaced.
 */
function persistIfChanged(original: Installation) {
  let last = tokenFingerprint(original);
  return async (updated: Installation) => {
    const next = tokenFingerprint(updated);
    if (next === last) return;
    last = next;
    await save(updated);
  };
}

export interface CallAsInstallationOptions {
  installationId: string;
  tokenKind: TokenKind;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  /** A POST's arguments as a JSON body, instead of params. */
  json?: Record<string, unknown>;
  signal?: AbortSignal;
}

/** A Web API call with one of this session's tokens, kept fresh (see callWithFreshToken). */
export async function callAsInstallation(options: CallAsInstallationOptions): Promise<PlatformCallResult & { refreshed: boolean }> {
  const installation = await requireInstallation(options.installationId);
  const { result, refreshed } = await callWithFreshToken(installation, options, getSessionRuntime(), persistIfChanged(installation));
  // Not spread: the result's body and text are made when first read, and a copy would read them.
  return Object.assign(result, { refreshed });
}

/**
 * POST /api/tokens/refresh: a refresh now, whatever the expiry (still single-flight). The new access
 * token also replaces one revoked from the console.
 */
export async function refreshSessionToken(installationId: string, kind: TokenKind): Promise<InstallationView> {
  const installation = await requireInstallation(installationId);
  const outcome = await refreshInstallationToken(installation, kind, getSessionRuntime());
  await persistIfChanged(installation)(outcome.installation);
  if (outcome.outcome === "needs_reinstall") throw outcome.error;
  return toInstallationView(outcome.installation);
}

/**
 * auth.revoke on one access token. With rotation only that token dies (a refresh gets a new one); a
 * long-lived token takes the whole authorization with it, so the installation then needs reinstalling.
 */
export async function revokeSessionToken(installationId: string, kind: TokenKind): Promise<{ result: PlatformCallResult; installation: InstallationView }> {
  const installation = await requireInstallation(installationId);
  const token = installation[kind];
  if (!token) throw new AppError("no_token", 400, `This installation has no ${kind} token.`);
  const runtime = getSessionRuntime();
  const result = await callMethod({ baseUrl: runtime.baseUrl, token: token.value, method: "auth.revoke", timeoutMs: runtime.timeoutMs });
  let updated = installation;
  if (result.ok) {
    updated = token.refreshToken
      ? { ...installation, [kind]: { ...token, revoked: true }, updatedAt: runtime.now() }
      : { ...installation, state: "needs_reinstall", problem: "token_revoked", updatedAt: runtime.now() };
    updated = await save(updated);
  }
  return { result, installation: toInstallationView(updated) };
}

/** POST /api/installations/{id}/uninstall: apps.uninstall revokes every token; the record goes too. */
export async function uninstallSessionInstallation(installationId: string): Promise<PlatformCallResult> {
  const installation = await requireInstallation(installationId);
  const kind: TokenKind = installation.bot ? "bot" : "user";
  const { clientId, clientSecret } = getSessionRuntime().credentialsFor(installation.appKey);
  const { result } = await callWithFreshToken(
    installation,
    { tokenKind: kind, method: "apps.uninstall", params: { client_id: clientId, client_secret: clientSecret } },
    getSessionRuntime(),
    persistIfChanged(installation),
  );
  if (result.ok) await removeInstallation(installationId);
  return result;
}

/** DELETE /api/installations/{id}: forgets the installation in this browser; nothing changes upstream. */
export async function forgetSessionInstallation(installationId: string): Promise<void> {
  await requireInstallation(installationId);
  await removeInstallation(installationId);
}

/**
 * The exchange kills the original token for good, so the new pair must have somewhere to go before the
 * platform is asked: a full session only takes a pasted token of a team and app it already holds.
 */
async function assertRoomForPastedToken(token: string, appKey: AppKey): Promise<void> {
  const held = await listInstallations();
  if (held.length < MAX_INSTALLATIONS) return;
  const runtime = getSessionRuntime();
  const who = await callMethod({ baseUrl: runtime.baseUrl, token, method: "auth.test", timeoutMs: runtime.timeoutMs });
  const teamId = who.ok ? (who.body as { team_id?: unknown }).team_id : undefined;
  if (typeof teamId === "string" && held.some((i) => i.team.id === teamId && i.appKey === appKey)) return;
  throw new AppError(
    "too_many_installations",
    409,
    `This browser session already holds ${MAX_INSTALLATIONS} installations, the most its cookies can carry. Forget one before exchanging a token of another workspace: the pasted token was not exchanged.`,
  );
}

export type ExchangeRequest =
  | { installationId: string; tokenKind: TokenKind }
  | { pastedToken: string; appKey: AppKey };

/**
 * oauth.v2.exchange: a long-lived token becomes an expiring one with a refresh token, and the original
 * stops working for good. Either an installation's own long-lived token, or a pasted one, which then
 * becomes (or joins) a tracked installation of this session.
 */
export async function exchangeSessionToken(request: ExchangeRequest): Promise<InstallationView> {
  const runtime = getSessionRuntime();
  let previous: Installation | undefined;
  let token: string;
  let appKey: AppKey;
  if ("installationId" in request) {
    previous = await requireInstallation(request.installationId);
    const stored = previous[request.tokenKind];
    if (!stored) throw new AppError("no_token", 400, `This installation has no ${request.tokenKind} token.`);
    if (stored.refreshToken) throw new AppError("already_rotating", 400, `This ${request.tokenKind} token already rotates: there is nothing to exchange.`);
    token = stored.value;
    appKey = previous.appKey;
  } else {
    token = request.pastedToken;
    appKey = request.appKey;
    await assertRoomForPastedToken(token, appKey);
  }
  const { grant } = await exchangeLongLivedToken({ baseUrl: runtime.baseUrl, credentials: runtime.credentialsFor(appKey), token, timeoutMs: runtime.timeoutMs });
  if (!previous && grant.team) {
    previous = await findInstallation(installationIdFor(grant.team.id, grant.appId, appKey));
  }
  if (!grant.team && !previous) throw new AppError("upstream_bad_answer", 502, "The platform's exchange answer named no team.");
  const installation = await save(installationFromGrant(grant, appKey, runtime.now(), previous));
  return toInstallationView(installation);
}
