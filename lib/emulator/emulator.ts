/**
 * The platform emulator: `createEmulator(options)` returns an object whose `fetch(request)` answers
 * every request under its base path, like the platform's Web API at a base_url (the spec's sections 4 and
 * 5, docs/spec/web-api.md; docs/emulator.md maps every section to the files that implement it):
 *
 * - `{base}/api/<method>`: Web API methods (oauth.v2.access, oauth.v2.exchange, openid.connect.token,
 *   openid.connect.userInfo, auth.test, auth.revoke, apps.uninstall, users.list, conversations.*, chat.*, …)
 * - `{base}/oauth/v2/authorize`: the OAuth consent page
 * - `{base}/.well-known/openid-configuration`, `{base}/openid/connect/authorize` and `…/keys`: "Sign in with"
 *   (OpenID Connect; its methods openid.connect.token and openid.connect.userInfo are Web API methods)
 * - `{base}/services/{team}/{hook}/{secret}`: incoming webhooks
 * - `{base}/avatars/…`: profile images
 * - `{base}/upload/v1/{ticket}`: the upload URLs files.getUploadURLExternal hands out; `{base}/files-pri/…`: files' private URLs
 * - `{base}/.well-known/emulator`: the emulator describing itself (public: that it is one, and its clock)
 * - `{base}/admin/…`: the development-only admin surface (JSON; its own pages or the admin token, see admin/admin-guard.ts)
 * - `{base}/`: an index page listing the apps
 *
 * Every answer carries a Date header from the emulator's clock (core/about.ts). Every request body is read here, in full and up to a cap per surface (`maxBodyBytes`, 413 past it),
 * before any handler acts on it (core/request-body.ts).
 *
 * With `dataDir` it keeps its state there across restarts (persist/journal.ts: a journal of every change,
 * read back at start); without, in memory for as long as it runs. `close()` writes what is pending.
 *
 * It is framework-free: the console mounts it with one catch-all route (lib/embedded-emulator.ts, outside the emulator),
 * scripts/emulator-server.ts serves it over plain node:http (adapters/node-server.ts), and unit tests call
 * `fetch(new Request(...))` with a fake clock. Everything outside lib/emulator imports it through index.ts.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { parseAdminJson, registerAdminRoutes } from "./admin/admin";
import { checkAdminRequest, isAdminPath } from "./admin/admin-guard";
import { decideConsent, showConsentPage } from "./oauth/authorize";
import { AUTHORIZE_PATH, decideSignIn, showSignInPage } from "./openid/authorize";
import { DISCOVERY_PATH, KEYS_PATH, showDiscovery, showKeys } from "./openid/discovery";
import { handleAvatar } from "./workspace/avatars";
import { ABOUT_PATH, describeEmulator, withClockDate } from "./core/about";
import { createAdjustableClock, systemClock, type AdjustableClock } from "./core/clock";
import { settleRestoredApps } from "./apps/configured-apps";
import { defaultAppManifests } from "./apps/default-apps";
import { errorToResponse, jsonResponse, PlainTextError } from "./core/errors";
import { DEFAULT_BODY_LIMITS, detachBody } from "./core/request-body";
import { mentionApp } from "./events/app-mention";
import { registerMemberActionRoutes } from "./events/member-actions";
import { registerEventHealthRoutes } from "./events/event-health";
import { issueAdminTrigger } from "./admin/triggers";
import { registerInteractivityRoutes } from "./interactivity/routes";
import { registerWorkspaceStreamRoute } from "./admin/workspace-stream";
import { registerWorkspaceViewRoutes } from "./admin/workspace-view";
import { applyFaults, WEBHOOK_FAULT_TARGET } from "./admin/faults";
import { showIndexPage } from "./admin/index-page";
import { APP_REDIRECT_PATH, showAppHome } from "./oauth/app-home-page";
import { Router } from "./core/router";
import { openJournal, type Journal } from "./persist/journal";
import { registerSocketModeAdminRoutes } from "./socket-mode/admin-routes";
import { existingHubOf } from "./socket-mode/hub";
import { handleSocketUpgrade } from "./socket-mode/upgrade";
import { createState } from "./store";
import type { EmulatorOptions, EmulatorState, RequestContext, ResolvedOptions } from "./types";
import { handleWebApi } from "./web-api/web-api";
import { handleIncomingWebhook } from "./webhooks/webhooks";
import { handleFileDownload, handleFileUpload } from "./workspace/file-routes";
import { DEFAULT_USER_COUNT } from "./workspace/workspace";

export interface Emulator {
  /** Answers one request. The request URL's path must start with the base path. */
  fetch(request: Request): Promise<Response>;
  /** The live state (apps, installations, tokens, codes, workspace): inspectable in tests. */
  readonly state: EmulatorState;
  /** The emulator's clock: the given (or wall) clock plus what POST /admin/clock advanced. */
  readonly clock: AdjustableClock;
  /** The options with every default filled in. */
  readonly options: ResolvedOptions;
  /** The data directory the state is kept in (EmulatorOptions.dataDir), if any. */
  readonly dataDir: string | undefined;
  /**
   * Takes a WebSocket upgrade for Socket Mode (`{base}/link/?ticket=…`, the URL apps.connections.open answers):
   * a server that serves the emulator passes each upgrade here; false when the path is not the emulator's.
   */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Writes what is not yet written to the data directory and gives the directory back (nothing to do without one). */
  close(): Promise<void>;
}

function normalizeBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? "").replace(/\/+$/, "");
  return trimmed === "" ? "" : trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    basePath: normalizeBasePath(options.basePath),
    publicBaseUrl: options.publicBaseUrl?.replace(/\/+$/, ""),
    users: options.users ?? DEFAULT_USER_COUNT,
    workspaces: Math.max(1, Math.floor(options.workspaces ?? 1)),
    seed: options.seed ?? "switchboard",
    seedContent: options.seedContent ?? false,
    refreshGraceSeconds: options.refreshGraceSeconds ?? 60,
    cursorTtlSeconds: options.cursorTtlSeconds ?? 900,
    rateLimits: options.rateLimits ?? false,
    nonMarketplaceRateLimits: options.nonMarketplaceRateLimits ?? false,
    apps: options.apps ?? defaultAppManifests({ redirectUrls: options.redirectUrls, eventsRequestUrl: options.eventsRequestUrl }),
    redirectUrls: options.redirectUrls ?? [],
    eventsRequestUrl: options.eventsRequestUrl,
    deliverEvent: options.deliverEvent ?? ((url, init) => fetch(url, init)),
    eventRequestUrls: options.eventRequestUrls,
    socketModeUrl: options.socketModeUrl,
    maxBodyBytes: {
      webApi: options.maxBodyBytes?.webApi ?? DEFAULT_BODY_LIMITS.webApi,
      admin: options.maxBodyBytes?.admin ?? DEFAULT_BODY_LIMITS.admin,
      webhooks: options.maxBodyBytes?.webhooks ?? DEFAULT_BODY_LIMITS.webhooks,
    },
    admin: resolveAdminAccess(options.admin),
  };
}

function resolveAdminAccess(admin: EmulatorOptions["admin"] = {}): ResolvedOptions["admin"] {
  const token = admin.token === "" ? undefined : admin.token;
  // A surface that requires a token nobody has would answer no one: a configuration mistake, said at once.
  if (admin.requireToken && !token) throw new Error("The emulator's admin surface requires a token (admin.requireToken) but none was given (admin.token).");
  return {
    token,
    requireToken: admin.requireToken ?? false,
    scriptsNeedToken: admin.scriptsNeedToken ?? false,
    allowedHosts: admin.allowedHosts?.map((h) => h.toLowerCase()),
  };
}

function buildRouter(runtime: { state: EmulatorState; options: ResolvedOptions; clock: AdjustableClock; onReset?: () => void }): Router {
  const router = new Router();
  router.get("/", (ctx) => showIndexPage(ctx));
  router.on(["GET", "POST"], "/api/:method", async (ctx, params) => {
    const method = params.method ?? "";
    const fault = await applyFaults(ctx.state.faults, method);
    return fault ?? handleWebApi(ctx, method);
  });
  router.get("/oauth/v2/authorize", (ctx) => showConsentPage(ctx));
  router.post("/oauth/v2/authorize", (ctx) => decideConsent(ctx));
  router.get(APP_REDIRECT_PATH, (ctx) => showAppHome(ctx));
  router.get(DISCOVERY_PATH, (ctx) => showDiscovery(ctx));
  router.get(AUTHORIZE_PATH, (ctx) => showSignInPage(ctx));
  router.post(AUTHORIZE_PATH, (ctx) => decideSignIn(ctx));
  router.get(KEYS_PATH, (ctx) => showKeys(ctx));
  router.post("/services/*", async (ctx, params) => {
    const fault = await applyFaults(ctx.state.faults, WEBHOOK_FAULT_TARGET);
    return fault ?? handleIncomingWebhook(ctx, params["*"] ?? "");
  });
  // A webhook URL takes only POST; like every webhook answer, the refusal is plain text.
  router.on("*", "/services/*", () => {
    throw new PlainTextError(405, "method_not_allowed", { allow: "POST" });
  });
  router.get(ABOUT_PATH, () => describeEmulator(runtime.state, runtime.clock, runtime.options));
  router.get("/avatars/*", (ctx, params) => handleAvatar(ctx, params["*"] ?? ""));
  router.post("/upload/v1/:ticket", (ctx, params) => handleFileUpload(ctx, params.ticket ?? ""));
  router.get("/files-pri/*", (ctx, params) => handleFileDownload(ctx, params["*"] ?? ""));
  registerAdminRoutes(router, runtime);
  registerSocketModeAdminRoutes(router, runtime, parseAdminJson);
  registerMemberActionRoutes(router, parseAdminJson);
  registerEventHealthRoutes(router);
  registerInteractivityRoutes(router, parseAdminJson);
  registerWorkspaceViewRoutes(router);
  registerWorkspaceStreamRoute(router);
  router.post("/admin/mention", async (ctx) => jsonResponse({ ok: true, ...(await mentionApp(ctx, parseAdminJson(await ctx.request.text()))) }));
  router.post("/admin/triggers", async (ctx) => jsonResponse({ ok: true, ...issueAdminTrigger(ctx, parseAdminJson(await ctx.request.text())) }));
  return router;
}

/** Creates an emulator with its own state. See the module comment for what it answers. */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const resolved = resolveOptions(options);
  let journal: Journal | undefined;
  const clock = createAdjustableClock(options.clock ?? systemClock, () => journal?.clockMoved());
  const state = createState(resolved);
  if (options.dataDir) {
    const configured = [...state.apps.values()];
    journal = openJournal(state, clock, { dir: options.dataDir, warn: options.warn ?? ((message) => console.warn(message)) });
    settleRestoredApps(state, configured, resolved);
  }
  // A reset replaces the state's containers: the journal adopts the new ones and is rewritten.
  const router = buildRouter({
    state,
    options: resolved,
    clock,
    onReset: () => {
      journal?.attach();
      // The app-level tokens the connections were opened with are gone: so are the connections.
      existingHubOf(state)?.closeAll();
    },
  });

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const { basePath } = resolved;
    if (basePath && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) {
      return jsonResponse({ ok: false, error: "not_found" }, 404);
    }
    const path = url.pathname.slice(basePath.length) || "/";
    if (isAdminPath(path)) checkAdminRequest(request, resolved);
    const match = router.match(request.method, path);
    if (!match) return jsonResponse({ ok: false, error: "not_found" }, 404);
    if ("allowed" in match) {
      return jsonResponse({ ok: false, error: "method_not_allowed" }, 405, { allow: match.allowed.join(", ") });
    }
    const ctx: RequestContext = {
      request: await detachBody(request, path, resolved.maxBodyBytes),
      state,
      clock,
      options: resolved,
      baseUrl: resolved.publicBaseUrl ?? `${url.origin}${basePath}`,
    };
    return match.handler(ctx, match.params);
  }

  return {
    async fetch(request) {
      let response: Response;
      try {
        response = await handle(request);
      } catch (error) {
        response = errorToResponse(error);
      }
      return withClockDate(response, clock.now());
    },
    state,
    clock,
    options: resolved,
    dataDir: options.dataDir,
    handleUpgrade: (request, socket, head) => handleSocketUpgrade(state, resolved.basePath, request, socket, head),
    async close() {
      existingHubOf(state)?.close();
      journal?.close();
    },
  };
}
