import "server-only";
import { requireAdmin } from "@/lib/access/viewer";
import { isAdmin } from "@/lib/viewer";
import { getConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator";
import { issueEmulatorConfigTokens, readEmulatorState } from "@/lib/emulator-admin/client";
import { requireUpstreamEmulator, upstreamEmulator } from "@/lib/upstream-emulator";
import { logger } from "@/lib/log";
import { AppError } from "@/lib/http/app-error";
import { callMethod, maskToken } from "@/lib/platform";
import { callAsInstallation } from "@/lib/installations/actions/call-as-installation";
import { exchangeSessionToken } from "@/lib/installations/actions/exchange-token";
import { getSessionInstallations, getSessionInstallationViews } from "@/lib/installations/actions/list-installations";
import { requireInstallation } from "@/lib/installations/visibility";
import { requireLongLivedToken } from "@/lib/installations/record";
import { TOKEN_KINDS, type TokenKind } from "@/lib/installations/universal/token-kind";
import { type InstallationView } from "@/lib/installations/universal/view";
import { ManifestRefusedError, type AppConfigBackend, type AppRecord } from "./backend";
import { currentConfigTokenView } from "./config-token";
import { readConfigToken, withConfigTokenLock, writeConfigToken } from "./config-token-store";
import { adminTargetOf, emulatorAdminBackend } from "./emulator-admin-backend";
import { reshapeManifest, scopeProblems, withScopes, withTokenRotation } from "./universal/manifest";
import { manifestApiBackend } from "./manifest-api-backend";
import { configTokenOwner, viewerOf, type AppConfigRuntime } from "./runtime";
import { reinstallHref } from "@/lib/installations/universal/install-href";
import type {
  AppChoice,
  AppConfigOverview,
  AppInstallation,
  AppManifest,
  AppSettingsView,
  ConfigTokenView,
  EmulatorTokenRecord,
  ManifestChangeResult,
  MaskedCredentials,
  MigrationExchangeResult,
} from "./universal/types";

/**
 * What the app settings page does, whichever backend serves it: with a pasted configuration token the
 * platform's App Manifest API (which the emulator implements too); without one, against the embedded
 * emulator, its admin surface; against the platform without one, nothing until a token is pasted.
 */
export async function selectBackend(runtime: AppConfigRuntime): Promise<AppConfigBackend> {
  if (await readConfigToken(configTokenOwner(runtime))) return manifestApiBackend(runtime);
  if (runtime.upstream.kind === "emulator") return emulatorAdminBackend(runtime);
  throw new AppError("config_token_required");
}

/** The admin surface of the emulator the upstream is (embedded or standalone: upstreamEmulator), or null against the platform. */
async function emulatorBackend(runtime: AppConfigRuntime): Promise<AppConfigBackend | null> {
  const upstream = await upstreamEmulator(runtime.upstream, runtime.timeoutMs);
  return upstream.kind === "platform" ? null : emulatorAdminBackend(runtime, upstream.target);
}

/**
 * What serves an app's event delivery (whether the platform disabled it, enabling it again): the backend
 * when it can, else the emulator's admin surface when the upstream is one, a standalone emulator through
 * PLATFORM_BASE_URL above all (read with a pasted configuration token, through the App Manifest API, which
 * knows nothing of delivery); null against the real platform.
 */
async function deliveryBackend(backend: AppConfigBackend, runtime: AppConfigRuntime): Promise<AppConfigBackend | null> {
  return backend.enableEvents ? backend : emulatorBackend(runtime);
}

function sameScopes(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((s) => right.has(s));
}

/**
 * Which of the console's apps this is: by this session's installations of it, else by the client id the
 * backend reports (the console's configured one, or the embedded emulator's legacy app's).
 */
function appKeyOf(record: AppRecord, views: InstallationView[]): InstallationView["app"]["key"] | undefined {
  if (views[0]) return views[0].app.key;
  const config = getConfig();
  const clientId = record.credentials?.clientId;
  if (!clientId) return undefined;
  if (clientId === config.clientId) return "console";
  if (config.upstream.kind === "emulator" && clientId === defaultAppCredentials(config.emulator.seed, "legacy").clientId) return "legacy";
  return undefined;
}

/**
 * The credentials the backend reports, else, for an app this session installed, the ones this console is
 * configured with (the platform's manifest API never returns them). Masked here: they never leave in clear.
 */
function maskedCredentials(record: AppRecord, views: InstallationView[]): MaskedCredentials | null {
  const mask = (c: { clientId: string; clientSecret: string; signingSecret: string }, source: MaskedCredentials["source"]): MaskedCredentials => ({
    clientId: c.clientId,
    clientSecret: maskToken(c.clientSecret),
    signingSecret: maskToken(c.signingSecret),
    source,
  });
  if (record.credentials) return mask(record.credentials, "emulator-admin");
  const config = getConfig();
  const key = appKeyOf(record, views);
  if (key === "console") return mask({ clientId: config.clientId, clientSecret: config.clientSecret, signingSecret: config.signingSecret }, "console-config");
  if (key === "legacy" && config.upstream.kind === "emulator") return mask(defaultAppCredentials(config.emulator.seed, "legacy"), "console-config");
  return null;
}

/** With the embedded emulator: what it recorded of each installation's tokens (masked), by console installation id. */
async function emulatorTokensByInstallation(runtime: AppConfigRuntime, appId: string, views: InstallationView[]): Promise<Map<string, EmulatorTokenRecord[]>> {
  const found = new Map<string, EmulatorTokenRecord[]>();
  if (runtime.upstream.kind !== "emulator" || views.length === 0) return found;
  const state = await readEmulatorState(adminTargetOf(runtime));
  for (const view of views) {
    const upstream = state.installations.find((i) => i.app_id === appId && i.team_id === view.team.id);
    if (!upstream) continue;
    found.set(
      view.id,
      state.tokens
        .filter((t) => t.installation_id === upstream.id && (t.kind === "bot" || t.kind === "user"))
        .map((t) => ({ kind: t.kind, masked: t.masked, state: t.state, rotating: t.rotating, issuedAt: t.issued_at, exchangedFor: t.exchanged_for ?? null })),
    );
  }
  return found;
}

function toAppInstallation(view: InstallationView, manifest: AppManifest, emulatorTokens: EmulatorTokenRecord[] | null): AppInstallation {
  const { scopes } = reshapeManifest(manifest);
  const tokens = TOKEN_KINDS.flatMap((kind) => {
    const token = view[kind];
    return token ? [{ kind, masked: token.masked, rotating: token.rotating, expiresAt: token.expiresAt, revoked: token.revoked }] : [];
  });
  return {
    id: view.id,
    appKey: view.app.key,
    team: view.team,
    state: view.state,
    tokens,
    reinstallHref: reinstallHref(view, scopes.bot, scopes.user),
    emulatorTokens,
  };
}

function installHrefOf(record: AppRecord, views: InstallationView[]): string | null {
  const key = appKeyOf(record, views);
  const { scopes } = reshapeManifest(record.manifest);
  return key ? reinstallHref({ app: { key } }, scopes.bot, scopes.user) : null;
}

/**
 * The app's delivery as deliveryBackend reads it. An emulator whose admin surface refuses (an admin token
 * not shared with it) leaves the rest of the settings readable: the delivery is then said unknown, logged.
 */
async function eventDelivery(backend: AppConfigBackend, record: AppRecord, runtime: AppConfigRuntime) {
  const delivery = await deliveryBackend(backend, runtime);
  if (!delivery || delivery === backend) return { delivery, disabled: record.eventsDisabled };
  try {
    return { delivery, disabled: (await delivery.readApp(record.appId)).eventsDisabled };
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.name : typeof error, appId: record.appId }, "app settings: the emulator's event delivery was not read");
    return { delivery: null, disabled: undefined };
  }
}

async function settingsOf(backend: AppConfigBackend, record: AppRecord, runtime: AppConfigRuntime): Promise<AppSettingsView> {
  const shape = reshapeManifest(record.manifest);
  const views = (await getSessionInstallationViews({ viewer: viewerOf(runtime) })).filter((v) => v.app.id === record.appId);
  const emulatorTokens = await emulatorTokensByInstallation(runtime, record.appId, views);
  const { delivery, disabled } = await eventDelivery(backend, record, runtime);
  return {
    ok: true,
    backend: backend.kind,
    appId: record.appId,
    name: shape.name,
    credentials: maskedCredentials(record, views),
    redirectUrls: shape.redirectUrls,
    scopes: shape.scopes,
    events: {
      ...shape.events,
      verification: record.verification,
      canVerify: backend.verifyRequestUrl !== null && shape.events.requestUrl !== null,
      disabled,
      canEnable: delivery !== null,
    },
    tokenRotationEnabled: shape.tokenRotationEnabled,
    manifest: record.manifest,
    installations: views.map((v) => toAppInstallation(v, record.manifest, runtime.upstream.kind === "emulator" ? (emulatorTokens.get(v.id) ?? []) : null)),
    installHref: installHrefOf(record, views),
    configToken: await currentConfigTokenView(runtime),
  };
}

/** GET /api/app-config: which backend serves this browser, its configuration token, and the apps to open. */
export async function getAppConfigOverview(runtime: AppConfigRuntime): Promise<AppConfigOverview> {
  const configToken = await currentConfigTokenView(runtime);
  const backend = configToken ? "manifest-api" : runtime.upstream.kind === "emulator" ? "emulator-admin" : null;
  const emulator = (await upstreamEmulator(runtime.upstream, runtime.timeoutMs)).kind;
  const views = await getSessionInstallationViews({ viewer: viewerOf(runtime) });
  const listed = runtime.upstream.kind === "emulator" ? await emulatorAdminBackend(runtime).listApps() : [];
  const apps: AppChoice[] = [];
  for (const view of views) {
    const appId = view.app.id;
    if (!appId || apps.some((a) => a.appId === appId)) continue;
    const name = listed.find((l) => l.appId === appId)?.name ?? (view.app.key === "legacy" ? "The emulator's legacy app" : "This console's app");
    apps.push({ appId, name, source: "installation" });
  }
  for (const app of listed) if (!apps.some((a) => a.appId === app.appId)) apps.push({ appId: app.appId, name: app.name, source: "emulator" });
  const consoleApp = listed.find((l) => l.clientId === getConfig().clientId)?.appId;
  return {
    ok: true,
    upstream: runtime.upstream,
    emulator: emulator === "platform" ? null : emulator,
    backend,
    configToken,
    apps,
    defaultAppId: apps.find((a) => a.source === "installation")?.appId ?? consoleApp ?? null,
    serverTime: runtime.now(),
  };
}

/**
 * An app's settings are read by those who see one of its installations (and admins): another app answers as
 * an unknown one. They are changed by admins only: an app is shared by every workspace it is installed in,
 * and anyone can install it into a workspace of their own, so having installed it gives no right over it.
 */
export async function requireAppReader(appId: string, runtime: AppConfigRuntime): Promise<void> {
  const viewer = viewerOf(runtime);
  if (isAdmin(viewer)) return;
  if (!(await getSessionInstallations({ viewer })).some((installation) => installation.appId === appId)) throw new AppError("app_not_found");
}

/** GET /api/app-config/apps/{appId} */
export async function getAppSettings(appId: string, runtime: AppConfigRuntime): Promise<AppSettingsView> {
  await requireAppReader(appId, runtime);
  const backend = await selectBackend(runtime);
  return settingsOf(backend, await backend.readApp(appId), runtime);
}

/**
 * Replaces the manifest with a changed copy: validated first where the backend can (apps.manifest.validate
 * is tier 3, update tier 1: a refusal should not spend the update's minute), then updated whole.
 */
async function changeManifest(appId: string, change: (manifest: AppManifest) => AppManifest, runtime: AppConfigRuntime): Promise<ManifestChangeResult> {
  requireAdmin(viewerOf(runtime), "change an app's settings: they are every workspace's it is installed in");
  const backend = await selectBackend(runtime);
  const before = await backend.readApp(appId);
  const next = change(before.manifest);
  if (backend.validateManifest) {
    const problems = await backend.validateManifest(appId, next);
    if (problems.length > 0) throw new ManifestRefusedError(problems);
  }
  await backend.updateManifest(appId, next);
  const was = reshapeManifest(before.manifest).scopes;
  const now = reshapeManifest(next).scopes;
  const settings = await settingsOf(backend, await backend.readApp(appId), runtime);
  return { ok: true, permissionsUpdated: !sameScopes(was.bot, now.bot) || !sameScopes(was.user, now.user), settings };
}

/** POST /api/app-config/apps/{appId}/scopes: the app's bot and user scopes; installations get them by reinstalling. */
export function changeAppScopes(appId: string, bot: string[], user: string[], runtime: AppConfigRuntime): Promise<ManifestChangeResult> {
  if (bot.length === 0 && user.length === 0) throw new AppError("no_scopes");
  return changeManifest(
    appId,
    (manifest) => {
      const saved = reshapeManifest(manifest).scopes;
      const problems = [...scopeProblems("bot", bot, saved.bot), ...scopeProblems("user", user, saved.user)];
      if (problems.length > 0) throw new AppError("invalid_scope", { message: `${problems.join(" ")} Nothing was saved.` });
      return withScopes(manifest, bot, user);
    },
    runtime,
  );
}

/** POST /api/app-config/apps/{appId}/rotation: token rotation on, for good (the platform cannot turn it off). */
export function turnOnTokenRotation(appId: string, runtime: AppConfigRuntime): Promise<ManifestChangeResult> {
  return changeManifest(appId, withTokenRotation, runtime);
}

/** POST /api/app-config/apps/{appId}/verify: a fresh url_verification challenge, where the backend can send one. */
export async function verifyAppRequestUrl(appId: string, runtime: AppConfigRuntime): Promise<AppSettingsView> {
  requireAdmin(viewerOf(runtime), "send an app's request URL a new challenge");
  const backend = await selectBackend(runtime);
  if (!backend.verifyRequestUrl) throw new AppError("verify_not_available");
  await backend.verifyRequestUrl(appId);
  return settingsOf(backend, await backend.readApp(appId), runtime);
}

/**
 * POST /api/app-config/apps/{appId}/events/enable: the app's events delivered again after the platform
 * disabled them, where the backend can (the emulator); the platform's API cannot (its settings page does).
 */
export async function enableAppEvents(appId: string, runtime: AppConfigRuntime): Promise<AppSettingsView> {
  requireAdmin(viewerOf(runtime), "enable an app's event delivery again: it is every workspace's it is installed in");
  const backend = await selectBackend(runtime);
  const delivery = await deliveryBackend(backend, runtime);
  if (!delivery?.enableEvents) throw new AppError("enable_events_not_available");
  await delivery.enableEvents(appId);
  return settingsOf(backend, await backend.readApp(appId), runtime);
}

/**
 * POST /api/app-config/token/generate: the emulator's stand-in for "Generate Token" on the platform's Your
 * Apps page (POST /admin/config-tokens), from the embedded emulator or a standalone one (upstreamEmulator);
 * refused against the real platform, whose tokens come from its page. The pair goes straight into the
 * sealed cookie: the browser never sees it. The console's real path is the paste, which this only spares a
 * copy and paste.
 */
export async function generateEmulatorConfigToken(runtime: AppConfigRuntime): Promise<ConfigTokenView> {
  requireAdmin(viewerOf(runtime), "generate an app configuration token");
  const target = await requireUpstreamEmulator(
    "its configuration tokens come from your Your Apps page (api.slack.com/apps, Generate Token): paste the pair here.",
    runtime.upstream,
    runtime.timeoutMs,
  );
  const pair = await issueEmulatorConfigTokens(target);
  const now = runtime.now();
  const stored = {
    token: pair.token,
    refreshToken: pair.refresh_token,
    expiresAt: now + (pair.exp - pair.iat) * 1000,
    rotatedAt: now,
    teamId: pair.team_id,
    userId: pair.user_id,
  };
  const owner = configTokenOwner(runtime);
  await withConfigTokenLock(owner, () => writeConfigToken(owner, stored));
  return (await currentConfigTokenView(runtime))!;
}

function authTestOutcome(result: { ok: boolean; body: unknown }): { ok: boolean; error: string | null } {
  const error = (result.body as { error?: unknown } | undefined)?.error;
  return { ok: result.ok, error: result.ok ? null : typeof error === "string" ? error : "no_answer" };
}

/**
 * Steps 2 and 4 of the rotation migration guide for one long-lived token: oauth.v2.exchange (through the
 * session, which then holds the new expiring token and its refresh token, and no longer the original),
 * then auth.test with the original, still in this request's memory, to confirm it no longer works. The
 * original is never stored, answered or revoked: auth.revoke with it would revoke the whole installation.
 */
export async function exchangeForMigration(
  appId: string,
  installationId: string,
  kind: TokenKind,
  runtime: AppConfigRuntime,
): Promise<MigrationExchangeResult> {
  const viewer = viewerOf(runtime);
  const installation = (await getSessionInstallations({ viewer })).find((i) => i.id === installationId && i.appId === appId);
  if (!installation) throw new AppError("unknown_installation", { message: `This session holds no installation ${installationId} of app ${appId}.` });
  const original = requireLongLivedToken(installation, kind);
  const view = await exchangeSessionToken({ viewer, request: { installationId, tokenKind: kind } });
  const originalTest = await callMethod({ baseUrl: runtime.upstream.baseUrl, token: original.value, method: "auth.test", timeoutMs: runtime.timeoutMs });
  const exchanged = await requireInstallation(viewer, installationId);
  const replacementTest = await callAsInstallation({ viewer, installation: exchanged, tokenKind: kind, method: "auth.test" });
  const replacement = view[kind];
  return {
    ok: true,
    kind,
    original: { masked: maskToken(original.value), authTest: authTestOutcome({ ok: originalTest.ok, body: originalTest.body }) },
    replacement: {
      masked: replacement?.masked ?? "",
      expiresAt: replacement?.expiresAt ?? null,
      maskedRefreshToken: replacement?.maskedRefreshToken ?? null,
      authTest: authTestOutcome(replacementTest),
    },
    settings: await getAppSettings(appId, runtime),
  };
}
