/**
 * The app registry: apps are defined by manifests (the platform's manifest shape). Credentials are
 * derived from the seed and the app's name, so a standalone emulator and the console agree on them.
 */
import { z } from "zod";
import { appCredentials, DEFAULT_APP_NAMES, type DefaultAppKey } from "./default-apps";
import { WebApiError } from "./errors";
import type { App, AppManifest, EmulatorState, ResolvedOptions } from "./types";
import { describeVerification, eventRequestUrlOf, verifyRequestUrl } from "./url-verification";

const scopeName = z.string().regex(/^[a-z][a-z0-9_.:-]*$/, "is not a scope name");

export const AppManifestSchema = z.object({
  display_information: z.object({
    name: z.string().trim().min(1).max(35),
    description: z.string().max(140).optional(),
    background_color: z.string().optional(),
  }),
  features: z
    .object({ bot_user: z.object({ display_name: z.string().optional(), always_online: z.boolean().optional() }).optional() })
    .optional(),
  oauth_config: z
    .object({
      redirect_urls: z.array(z.string().url()).optional(),
      scopes: z.object({ bot: z.array(scopeName).optional(), user: z.array(scopeName).optional() }).optional(),
    })
    .optional(),
  settings: z
    .object({
      token_rotation_enabled: z.boolean().optional(),
      org_deploy_enabled: z.boolean().optional(),
      event_subscriptions: z
        .object({
          request_url: z.string().url().optional(),
          bot_events: z.array(z.string()).optional(),
          user_events: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
}) satisfies z.ZodType<AppManifest>;

function credentialKey(name: string): string {
  const defaultKey = (Object.keys(DEFAULT_APP_NAMES) as DefaultAppKey[]).find((k) => DEFAULT_APP_NAMES[k] === name);
  return defaultKey ?? `custom:${name}`;
}

export function buildApp(manifest: AppManifest, seed: string): App {
  const name = manifest.display_information.name;
  const credentials = appCredentials(seed, credentialKey(name));
  return {
    id: credentials.appId,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    signingSecret: credentials.signingSecret,
    manifest,
    name,
    botScopes: manifest.oauth_config?.scopes?.bot ?? [],
    userScopes: manifest.oauth_config?.scopes?.user ?? [],
    redirectUrls: manifest.oauth_config?.redirect_urls ?? [],
    tokenRotationEnabled: manifest.settings?.token_rotation_enabled === true,
    eventsRequestUrl: manifest.settings?.event_subscriptions?.request_url,
    botEvents: manifest.settings?.event_subscriptions?.bot_events ?? [],
  };
}

export function findAppByClientId(state: EmulatorState, clientId: string | undefined): App | undefined {
  if (!clientId) return undefined;
  for (const app of state.apps.values()) if (app.clientId === clientId) return app;
  return undefined;
}

/** The platform's answer to a manifest it will not accept (as apps.manifest.update gives it). */
function invalidManifest(message: string, pointer: string): WebApiError {
  return new WebApiError("invalid_manifest", { errors: [{ message, pointer }] }, { status: 400 });
}

/**
 * Adds an app, or updates the app with the same name (or `appId`). Turning token rotation on is
 * always allowed; turning it off is refused, because the platform cannot switch it off again.
 */
export function upsertApp(
  state: EmulatorState,
  input: unknown,
  options: Pick<ResolvedOptions, "seed" | "eventRequestUrls" | "eventsRequestUrl" | "deliverEvent">,
  appId?: string,
): { app: App; created: boolean } {
  const { seed } = options;
  const parsed = AppManifestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidManifest(issue?.message ?? "invalid manifest", `/${(issue?.path ?? []).join("/")}`);
  }
  const manifest = parsed.data as AppManifest;
  const requestUrl = manifest.settings?.event_subscriptions?.request_url;
  if (requestUrl !== undefined && !isAllowedRequestUrl(options, requestUrl)) {
    throw invalidManifest(
      `This emulator delivers events only to ${options.eventRequestUrls?.join(", ")}.`,
      "/settings/event_subscriptions/request_url",
    );
  }
  const existing = appId
    ? state.apps.get(appId)
    : [...state.apps.values()].find((a) => a.name === manifest.display_information.name);
  if (appId && !existing) throw new WebApiError("app_not_found", {}, { status: 404 });

  if (!existing) {
    const app = buildApp(manifest, seed);
    if (state.apps.has(app.id)) throw invalidManifest("an app with this name already exists", "/display_information/name");
    state.apps.set(app.id, app);
    void verifyRequestUrl(app, options);
    return { app, created: true };
  }
  if (existing.tokenRotationEnabled && manifest.settings?.token_rotation_enabled !== true) {
    throw invalidManifest("Token rotation cannot be turned off once it is on.", "/settings/token_rotation_enabled");
  }
  // The app keeps its id and credentials across manifest updates, including a rename.
  const rebuilt = buildApp(manifest, seed);
  const app: App = {
    ...rebuilt,
    id: existing.id,
    clientId: existing.clientId,
    clientSecret: existing.clientSecret,
    signingSecret: existing.signingSecret,
  };
  // A request URL is verified when it is set or changed; an unchanged one keeps its verification.
  const previous = existing.requestUrlVerification;
  if (previous && previous.url === eventRequestUrlOf(app, options)) app.requestUrlVerification = previous;
  else void verifyRequestUrl(app, options);
  state.apps.set(app.id, app);
  return { app, created: false };
}

/** Whether the emulator may POST events to this request URL (see EmulatorOptions.eventRequestUrls). */
export function isAllowedRequestUrl(options: Pick<ResolvedOptions, "eventRequestUrls">, url: string): boolean {
  return options.eventRequestUrls === undefined || options.eventRequestUrls.includes(url);
}

/** What GET /admin/apps shows for an app (dev only: it includes the secrets). */
export function describeApp(app: App, baseUrl: string) {
  return {
    app_id: app.id,
    name: app.name,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    signing_secret: app.signingSecret,
    redirect_urls: app.redirectUrls,
    token_rotation_enabled: app.tokenRotationEnabled,
    scopes: { bot: app.botScopes, user: app.userScopes },
    event_subscriptions: {
      request_url: app.eventsRequestUrl ?? null,
      bot_events: app.botEvents,
      request_url_verification: describeVerification(app.requestUrlVerification),
    },
    authorize_url: authorizeUrl(app, baseUrl),
    manifest: app.manifest,
  };
}

/** The registered redirect URL on the emulator's own origin (the console that embeds it), else the first. */
function preferredRedirect(app: App, baseUrl: string): string | undefined {
  const origin = new URL(baseUrl).origin;
  return app.redirectUrls.find((u) => URL.canParse(u) && new URL(u).origin === origin) ?? app.redirectUrls[0];
}

/** The authorize URL that installs the app with every scope its manifest declares. */
export function authorizeUrl(app: App, baseUrl: string, redirectUri = preferredRedirect(app, baseUrl)): string {
  const url = new URL(`${baseUrl}/oauth/v2/authorize`);
  url.searchParams.set("client_id", app.clientId);
  url.searchParams.set("scope", app.botScopes.join(","));
  url.searchParams.set("user_scope", app.userScopes.join(","));
  if (redirectUri) url.searchParams.set("redirect_uri", redirectUri);
  return url.toString();
}
