import "server-only";
import { getConfig } from "@/lib/config";
import { AppError, isAppError, isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { exchangeAuthorizationCode, isPlatformError, maskToken } from "@/lib/platform";
import { readInstallingApp } from "@/lib/app-config/installing-app";
import { installationFromGrant, installationIdFor, MAX_APP_NAME_CHARS, toInstallationView } from "@/lib/installations/record";
import { chooseUserToken } from "@/lib/installations/user-tokens";
import type { AppKey, InstallationView } from "@/lib/installations/universal/view";
import type { Viewer } from "@/lib/viewer";
import { findInstallation, saveInstallation } from "@/lib/installations/repository";
import { personOf } from "@/lib/installations/who-did-it";
import { noneIfUnreadable } from "@/lib/installations/unreadable";
import { installScopes } from "./install-scopes";
import { consumeOAuthState, createOAuthState, type StateProblem } from "./state";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { prependEntry } from "@/lib/installations/universal/timeline";
import { withBotId } from "@/lib/installations/bot-identity";
import { onCurrentUpstream } from "@/lib/installations/upstream-instance";
import { describeUpstream } from "@/lib/platform/platform-time";

export interface InstallRequest {
  /** Comma-separated bot scopes (default: BOT_SCOPES when set, else the app's configuration; install-scopes.ts). */
  scope?: string;
  /** Comma-separated user scopes (default: USER_SCOPES when set, else the app's configuration). */
  userScope?: string;
  /** Preselect a workspace on the platform's consent page. */
  team?: string;
  /** "legacy": the embedded emulator's app without token rotation, whose long-lived tokens can be tried with Exchange. */
  app?: AppKey;
}

/** Starts "Add to workspace": a fresh state bound to this browser, and the platform's authorize URL. */
export async function beginInstall(request: InstallRequest, viewer: Viewer | null): Promise<string> {
  const config = getConfig();
  const runtime = getRotationRuntime();
  const appKey = request.app ?? "console";
  const { clientId } = runtime.credentialsFor(appKey);
  const scopes = await installScopes({
    link: { bot: request.scope, user: request.userScope },
    configured: { bot: config.botScopes, user: config.userScopes },
    app: () => readInstallingApp(viewer, { key: appKey, clientId }),
  });
  const state = await createOAuthState(appKey, runtime.now());
  const url = new URL(`${config.upstream.baseUrl}/oauth/v2/authorize`);
  url.searchParams.set("client_id", clientId);
  url.searchParams.set("scope", scopes.bot);
  url.searchParams.set("user_scope", scopes.user);
  url.searchParams.set("redirect_uri", config.redirectUri);
  url.searchParams.set("state", state);
  if (request.team) url.searchParams.set("team", request.team);
  return url.toString();
}

export type InstallProblem = StateProblem | "access_denied" | "missing_code" | "code_rejected" | "exchange_failed";

export type InstallOutcome =
  | { ok: true; installation: InstallationView }
  /**
   * `platformError`: the `error` the platform sent back on the redirect, as it came (the page names only known
   * ones). `appKey`: the app this browser started installing, when its state says (the page offers it again).
   */
  | { ok: false; problem: InstallProblem; detail?: string; platformError?: string; appKey?: AppKey };

/**
 * The OAuth callback: the state is checked and consumed first (so nothing that fails it can touch the
 * stored installations), then the code is exchanged with oauth.v2.access and the installation sealed.
 */
export async function completeInstall(query: URLSearchParams, viewer: Viewer | null): Promise<InstallOutcome> {
  const runtime = getRotationRuntime();
  const check = await consumeOAuthState(query.get("state"), runtime.now());
  const platformError = query.get("error");
  if (platformError) return { ok: false, problem: "access_denied", platformError, ...(check.ok ? { appKey: check.appKey } : {}) };
  if (!check.ok) return { ok: false, problem: check.problem };
  const code = query.get("code");
  if (!code) return { ok: false, problem: "missing_code" };
  const credentials = runtime.credentialsFor(check.appKey);
  try {
    const { grant } = await exchangeAuthorizationCode({
      baseUrl: runtime.baseUrl,
      credentials,
      code,
      redirectUri: getConfig().redirectUri,
      timeoutMs: runtime.timeoutMs,
    });
    // An organisation-wide install names no team: the organisation stands in its place (installationFromGrant).
    const where = grant.team ?? (grant.isEnterpriseInstall ? grant.enterprise : undefined);
    if (!where) throw new AppError("upstream_bad_answer", { message: "The platform's answer named no team." });
    // One stored with secrets this server cannot open is replaced whole: a reinstall is what its card advises.
    const previous = await findInstallation(installationIdFor(where.id, grant.appId, check.appKey), viewer ? { holder: { viewer } } : {}).catch(
      noneIfUnreadable,
    );
    // A reinstall replaces the bot token (and the installer's own user token, when it issues one) but keeps the
    // record's identity, install time, timeline and the other people's user tokens.
    const now = runtime.now();
    // The app's name from its configuration (the emulator's admin surface, or the person's configuration token);
    // when it cannot be read, installationFromGrant keeps the name the record had: never the id where a name is known.
    const app = await readInstallingApp(viewer, { key: check.appKey, clientId: credentials.clientId, ...(grant.appId ? { id: grant.appId } : {}) });
    const appName = app?.name?.slice(0, MAX_APP_NAME_CHARS) ?? undefined;
    const granted = installationFromGrant(
      grant,
      check.appKey,
      now,
      previous && { ...chooseUserToken(previous, { holder: undefined }), bot: undefined },
      appName,
    );
    // Which emulator issued these tokens (later reads notice one reset or replaced), and the bot's id (Bolt's ignoreSelf).
    const fresh = await withBotId(await onCurrentUpstream(granted, (fresh) => describeUpstream(runtime, fresh)), runtime);
    const issued = [fresh.bot, grant.user ? fresh.user : undefined].flatMap((t) => (t ? [maskToken(t.value)] : []));
    const installation = {
      ...fresh,
      timeline: prependEntry(fresh.timeline, {
        at: now,
        type: previous ? "reinstalled" : "installed",
        tokens: issued,
        by: previous ? "Reinstall (OAuth install)" : "OAuth install",
        // Whoever clicked Allow on the platform's page: the platform names them (authed_user), signed in here or not.
        ...(grant.authedUserId && /^[UW][A-Z0-9]{1,31}$/.test(grant.authedUserId) ? { who: { id: grant.authedUserId } } : {}),
      }),
    };
    // On the server, for every browser of the console: the installer's browser gets nothing but the redirect.
    const who = personOf(viewer);
    const saved = await saveInstallation(installation, who ? { who } : {});
    logger.info({ installation: saved.id, team: saved.team.id }, "installed");
    return { ok: true, installation: toInstallationView(saved) };
  } catch (error) {
    if (isPlatformError(error, "invalid_code")) return { ok: false, problem: "code_rejected" };
    // The store is gone (503 store_unavailable, saying what to fix): not the platform's refusal.
    if (isConsoleError(error, "store_unavailable")) throw error;
    if (isAppError(error)) return { ok: false, problem: "exchange_failed", detail: error.message };
    throw error;
  }
}
