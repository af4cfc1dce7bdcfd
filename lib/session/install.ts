import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, isAppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { exchangeAuthorizationCode, isPlatformError } from "@/lib/platform";
import { installationFromGrant, installationIdFor, toInstallationView, type AppKey, type InstallationView } from "./installation";
import { findInstallation, saveInstallation } from "./installation-store";
import { consumeOAuthState, createOAuthState, type StateProblem } from "./oauth-state";
import { getSessionRuntime } from "./runtime";

export interface InstallRequest {
  /** Comma-separated bot scopes (default BOT_SCOPES). */
  scope?: string;
  /** Comma-separated user scopes (default USER_SCOPES). */
  userScope?: string;
  /** Preselect a workspace on the platform's consent page. */
  team?: string;
  /** "legacy": the embedded emulator's app without token rotation, whose long-lived tokens can be tried with Exchange. */
  app?: "console" | "legacy";
}

/** Starts "Add to workspace": a fresh state bound to this browser, and the platform's authorize URL. */
export async function beginInstall(request: InstallRequest): Promise<string> {
  const config = getConfig();
  const runtime = getSessionRuntime();
  const appKey: AppKey = request.app === "legacy" ? "emulator-legacy" : "console";
  const { clientId } = runtime.credentialsFor(appKey);
  const state = await createOAuthState(appKey, runtime.now());
  const url = new URL(`${config.upstream.baseUrl}/oauth/v2/authorize`);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("scope", request.scope ?? config.botScopes.join(","));
  url.searchParams.set("user_scope", request.userScope ?? config.userScopes.join(","));
  url.searchParams.set("redirect_uri", config.redirectUri);
  url.searchParams.set("state", state);
  if (request.team) url.searchParams.set("team", request.team);
  return url.toString();
}

export type InstallProblem = StateProblem | "access_denied" | "missing_code" | "code_rejected" | "exchange_failed" | "too_many_installations";

/** What an OAuth error code looks like (access_denied, invalid_scope, …). */
const PLATFORM_ERROR_CODE = /^[a-z_]{1,64}$/;

export type InstallOutcome =
  | { ok: true; installation: InstallationView }
  | { ok: false; problem: InstallProblem; detail?: string };

/**
 * The OAuth callback: the state is checked and consumed first (so nothing that fails it can touch the
 * stored installations), then the code is exchanged with oauth.v2.access and the installation sealed.
 */
export async function completeInstall(query: URLSearchParams): Promise<InstallOutcome> {
  const runtime = getSessionRuntime();
  const check = await consumeOAuthState(query.get("state"), runtime.now());
  const platformError = query.get("error");
  if (platformError) {
    // The page shows an error code, never free text from the URL: a crafted link must not put its words on
    // the console's own page.
    const code = PLATFORM_ERROR_CODE.test(platformError) && platformError !== "access_denied" ? platformError : undefined;
    return { ok: false, problem: "access_denied", detail: code };
  }
  if (!check.ok) return { ok: false, problem: check.problem };
  const code = query.get("code");
  if (!code) return { ok: false, problem: "missing_code" };
  try {
    const { grant } = await exchangeAuthorizationCode({
      baseUrl: runtime.baseUrl,
      credentials: runtime.credentialsFor(check.appKey),
      code,
      redirectUri: getConfig().redirectUri,
      timeoutMs: runtime.timeoutMs,
    });
    if (!grant.team) throw new AppError("upstream_bad_answer", 502, "The platform's answer named no team.");
    const previous = await findInstallation(installationIdFor(grant.team.id, grant.appId, check.appKey));
    // A reinstall replaces the tokens but keeps the record's identity and install time.
    const installation = installationFromGrant(grant, check.appKey, runtime.now(), previous && { ...previous, bot: undefined, user: undefined });
    await saveInstallation(installation);
    logger.info({ installation: installation.id, team: installation.team.id }, "installed");
    return { ok: true, installation: toInstallationView(installation) };
  } catch (error) {
    if (isPlatformError(error) && error.platformCode === "invalid_code") return { ok: false, problem: "code_rejected" };
    if (isAppError(error) && error.code === "too_many_installations") return { ok: false, problem: "too_many_installations", detail: error.message };
    if (isAppError(error)) return { ok: false, problem: "exchange_failed", detail: error.message };
    throw error;
  }
}
