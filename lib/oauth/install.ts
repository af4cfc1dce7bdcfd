import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, isAppError, isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { callMethod, exchangeAuthorizationCode, isPlatformError, maskToken, type TokenGrant } from "@/lib/platform";
import { lookupAppName } from "@/lib/installations/app-name";
import { installationFromGrant, installationIdFor, toInstallationView } from "@/lib/installations/record";
import type { AppKey, InstallationView } from "@/lib/installations/view";
import { findInstallation, listInstallations, MAX_INSTALLATIONS, saveInstallation } from "@/lib/installations/store";
import { consumeOAuthState, createOAuthState, type StateProblem } from "./state";
import { getRotationRuntime, type RotationRuntime } from "@/lib/rotation/runtime";
import { prependEntry } from "@/lib/installations/timeline";

export interface InstallRequest {
  /** Comma-separated bot scopes (default BOT_SCOPES). */
  scope?: string;
  /** Comma-separated user scopes (default USER_SCOPES). */
  userScope?: string;
  /** Preselect a workspace on the platform's consent page. */
  team?: string;
  /** "legacy": the embedded emulator's app without token rotation, whose long-lived tokens can be tried with Exchange. */
  app?: AppKey;
}

/** Starts "Add to workspace": a fresh state bound to this browser, and the platform's authorize URL. */
export async function beginInstall(request: InstallRequest): Promise<string> {
  const config = getConfig();
  const runtime = getRotationRuntime();
  const appKey = request.app ?? "console";
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

export type InstallOutcome =
  | { ok: true; installation: InstallationView }
  /** `platformError`: the `error` the platform sent back on the redirect, as it came (the page names only known ones). */
  | { ok: false; problem: InstallProblem; detail?: string; platformError?: string };

/**
 * Revokes every token a grant issued (access and refresh tokens alike, each with auth.revoke), so that an
 * installation the console cannot keep is not left active upstream with nobody holding its tokens.
 */
async function revokeGrant(grant: TokenGrant, runtime: RotationRuntime): Promise<boolean> {
  const tokens = [grant.bot, grant.user].flatMap((t) => (t ? [t.accessToken, ...(t.refreshToken ? [t.refreshToken] : [])] : []));
  const results = await Promise.all(
    tokens.map((token) =>
      callMethod({ baseUrl: runtime.baseUrl, token, method: "auth.revoke", timeoutMs: runtime.timeoutMs }).then(
        (result) => result.ok || (result.body as { error?: unknown } | undefined)?.error === "token_revoked",
        () => false,
      ),
    ),
  );
  return results.every(Boolean);
}

/**
 * The OAuth callback: the state is checked and consumed first (so nothing that fails it can touch the
 * stored installations), then the code is exchanged with oauth.v2.access and the installation sealed.
 */
export async function completeInstall(query: URLSearchParams): Promise<InstallOutcome> {
  const runtime = getRotationRuntime();
  const check = await consumeOAuthState(query.get("state"), runtime.now());
  const platformError = query.get("error");
  if (platformError) return { ok: false, problem: "access_denied", platformError };
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
    if (!grant.team) throw new AppError("upstream_bad_answer", { message: "The platform's answer named no team." });
    const previous = await findInstallation(installationIdFor(grant.team.id, grant.appId, check.appKey));
    // Which workspace was picked is only known now. A full session keeps only a reinstall of what it holds;
    // anything else would live on upstream with nobody holding its tokens, so it is revoked at once.
    if (!previous && (await listInstallations()).length >= MAX_INSTALLATIONS) {
      const revoked = await revokeGrant(grant, runtime);
      logger.warn({ team: grant.team.id, revoked }, "install refused: the session is full");
      return {
        ok: false,
        problem: "too_many_installations",
        detail: `This browser session already holds ${MAX_INSTALLATIONS} installations, the most its cookies can carry: forget one, then install again. ${
          revoked
            ? `The tokens the platform just issued for ${grant.team.name || grant.team.id} were revoked, so nothing is left behind there.`
            : `The platform did not confirm that the tokens it just issued for ${grant.team.name || grant.team.id} were revoked: uninstall the app there if it stays listed.`
        }`,
      };
    }
    // A reinstall replaces the tokens but keeps the record's identity, install time and timeline.
    const now = runtime.now();
    const appName = await lookupAppName(grant.appId, runtime);
    const fresh = installationFromGrant(grant, check.appKey, now, previous && { ...previous, bot: undefined, user: undefined }, appName);
    const issued = [fresh.bot, fresh.user].flatMap((t) => (t ? [maskToken(t.value)] : []));
    const installation = {
      ...fresh,
      timeline: prependEntry(fresh.timeline, {
        at: now,
        type: previous ? "reinstalled" : "installed",
        tokens: issued,
        by: previous ? "Reinstall (OAuth install)" : "OAuth install",
      }),
    };
    await saveInstallation(installation);
    logger.info({ installation: installation.id, team: installation.team.id }, "installed");
    return { ok: true, installation: toInstallationView(installation) };
  } catch (error) {
    if (isPlatformError(error, "invalid_code")) return { ok: false, problem: "code_rejected" };
    if (isConsoleError(error, "too_many_installations")) return { ok: false, problem: "too_many_installations", detail: error.message };
    if (isAppError(error)) return { ok: false, problem: "exchange_failed", detail: error.message };
    throw error;
  }
}
