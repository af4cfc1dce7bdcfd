/**
 * The app registry: apps are defined by manifests (the platform's manifest shape). Credentials are
 * derived from the seed and the app's name, so a standalone emulator and the console agree on them.
 */
import { z } from "zod";
import { appCredentials, DEFAULT_APP_NAMES, type DefaultAppKey } from "./default-apps";
import { WebApiError } from "../core/errors";
import { exceedsDepth, MAX_JSON_DEPTH } from "../core/json-depth";
import type { App, AppManifest, EmulatorState, ResolvedOptions } from "../types";
import { describeVerification, eventRequestUrlOf, verifyRequestUrl } from "../events/url-verification";
import { scopeProblem, type InstallTokenKind } from "../scopes";

const scopeName = z.string().regex(/^[a-z][a-z0-9_.:-]*$/, "A scope is named in lowercase, such as chat:write.");
const webUrl = (message: string) => z.url({ protocol: /^https?$/, error: message });

/**
 * The manifest schema the emulator checks: the platform's rules for the fields the emulator acts on
 * (lengths and formats as the platform documents them); every other key is kept as given, as the
 * platform round-trips the parts of a manifest it is not asked about here.
 */
export const AppManifestSchema = z.looseObject({
  _metadata: z.looseObject({ major_version: z.number().int().optional(), minor_version: z.number().int().optional() }).optional(),
  display_information: z.looseObject(
    {
      name: z.string({ error: "The app needs a name." }).trim().min(1, "The app needs a name.").max(35, "An app name has at most 35 characters."),
      description: z.string().max(140, "A short description has at most 140 characters.").optional(),
      background_color: z
        .string()
        .regex(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i, "A background color is a hex color such as #4A154B.")
        .optional(),
      long_description: z
        .string()
        .min(175, "A long description has 175 to 4000 characters.")
        .max(4000, "A long description has 175 to 4000 characters.")
        .optional(),
    },
    { error: "display_information (with the app's name) is required." },
  ),
  features: z
    .looseObject({
      bot_user: z
        .looseObject({
          display_name: z
            .string({ error: "A bot user needs a display name." })
            .trim()
            .min(1, "A bot user needs a display name.")
            .max(80, "A bot user's display name has at most 80 characters."),
          always_online: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
  oauth_config: z
    .looseObject({
      redirect_urls: z.array(webUrl("A redirect URL is an http or https URL.")).max(1000).optional(),
      scopes: z.looseObject({ bot: z.array(scopeName).max(255).optional(), user: z.array(scopeName).max(255).optional() }).optional(),
    })
    .optional(),
  settings: z
    .looseObject({
      token_rotation_enabled: z.boolean().optional(),
      org_deploy_enabled: z.boolean().optional(),
      socket_mode_enabled: z.boolean().optional(),
      is_hosted: z.boolean().optional(),
      event_subscriptions: z
        .looseObject({
          request_url: webUrl("A request URL is an http or https URL.").optional(),
          bot_events: z.array(z.string()).max(100).optional(),
          user_events: z.array(z.string()).max(100).optional(),
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
    userEvents: manifest.settings?.event_subscriptions?.user_events ?? [],
  };
}

export function findAppByClientId(state: EmulatorState, clientId: string | undefined): App | undefined {
  if (!clientId) return undefined;
  for (const app of state.apps.values()) if (app.clientId === clientId) return app;
  return undefined;
}

/** One reason a manifest is refused: the platform's `errors` item of `invalid_manifest`. */
export interface ManifestProblem {
  message: string;
  /** A JSON pointer into the manifest, as the platform gives it: `/settings/event_subscriptions/request_url`. */
  pointer: string;
}

/** The problem of a manifest nested too deep to be stored and read back (core/json-depth.ts). */
export const MANIFEST_TOO_DEEP: ManifestProblem = { message: `The manifest nests deeper than ${MAX_JSON_DEPTH} levels.`, pointer: "/" };

export type ManifestCheck = { manifest: AppManifest; problems?: undefined } | { manifest?: undefined; problems: ManifestProblem[] };

type ManifestOptions = Pick<ResolvedOptions, "seed" | "eventRequestUrls" | "eventsRequestUrl" | "deliverEvent">;

/**
 * What a manifest is checked for: to replace an existing app's configuration, to create an app, or on its
 * own (apps.manifest.validate without app_id), which checks the schema and what this emulator allows.
 */
export type ManifestPurpose = { replaces: App } | { creates: true } | { alone: true };

/** Checks a manifest as the platform's manifest methods do: the schema, then what it would mean for the emulator's apps. */
export function checkManifest(
  state: EmulatorState,
  input: unknown,
  options: Pick<ResolvedOptions, "seed" | "eventRequestUrls">,
  purpose: ManifestPurpose,
): ManifestCheck {
  if (exceedsDepth(input)) return { problems: [MANIFEST_TOO_DEEP] };
  const parsed = AppManifestSchema.safeParse(input);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => ({ message: issue.message, pointer: `/${issue.path.map(String).join("/")}` })) };
  }
  const manifest = parsed.data as AppManifest;
  const problems: ManifestProblem[] = [];
  // The platform refuses a scope it does not know, or one its kind of token cannot have (invalid_scope).
  for (const kind of ["bot", "user"] as const satisfies readonly InstallTokenKind[]) {
    (manifest.oauth_config?.scopes?.[kind] ?? []).forEach((name, i) => {
      const problem = scopeProblem(name, kind);
      if (problem) problems.push({ message: `Invalid scope (invalid_scope): ${problem}`, pointer: `/oauth_config/scopes/${kind}/${i}` });
    });
  }
  const requestUrl = manifest.settings?.event_subscriptions?.request_url;
  if (requestUrl !== undefined && !isAllowedRequestUrl(options, requestUrl)) {
    problems.push({
      message: `This emulator delivers events only to ${options.eventRequestUrls?.join(", ")}.`,
      pointer: "/settings/event_subscriptions/request_url",
    });
  }
  problems.push(...interactionUrlProblems(options, manifest));
  const existing = "replaces" in purpose ? purpose.replaces : undefined;
  if (!("alone" in purpose)) {
    // Credentials derive from the name, so an app may not take a name (or an id) another app holds.
    const name = manifest.display_information.name;
    const nameTaken = [...state.apps.values()].some((a) => a.id !== existing?.id && a.name === name);
    if (nameTaken || (!existing && state.apps.has(buildApp(manifest, options.seed).id))) {
      problems.push({ message: "An app with this name already exists.", pointer: "/display_information/name" });
    }
  }
  if (existing?.tokenRotationEnabled && manifest.settings?.token_rotation_enabled !== true) {
    problems.push({ message: "Token rotation cannot be turned off once it is on.", pointer: "/settings/token_rotation_enabled" });
  }
  return problems.length > 0 ? { problems } : { manifest };
}

/**
 * Creates the app of a checked manifest, or replaces `existing`'s configuration with it. The app keeps
 * its id and credentials across updates, a rename included. A request URL is verified (url_verification)
 * when it is set or changed; an unchanged one keeps its verification.
 */
export function applyManifest(state: EmulatorState, manifest: AppManifest, options: ManifestOptions, existing?: App): App {
  const rebuilt = buildApp(manifest, options.seed);
  if (!existing) {
    state.apps.set(rebuilt.id, rebuilt);
    void verifyRequestUrl(rebuilt, options);
    return rebuilt;
  }
  const app: App = {
    ...rebuilt,
    id: existing.id,
    clientId: existing.clientId,
    clientSecret: existing.clientSecret,
    signingSecret: existing.signingSecret,
  };
  // A new manifest does not turn back on what the platform turned off (re-enabling is a separate step).
  if (existing.eventsDisabled) app.eventsDisabled = existing.eventsDisabled;
  const previous = existing.requestUrlVerification;
  if (previous && previous.url === eventRequestUrlOf(app, options)) app.requestUrlVerification = previous;
  else void verifyRequestUrl(app, options);
  state.apps.set(app.id, app);
  return app;
}

/**
 * POST /admin/apps: adds an app, or updates the app with the same name (or `appId`). Turning token
 * rotation on is always allowed; turning it off is refused, because the platform cannot switch it off
 * again. A refused manifest answers the platform's invalid_manifest, with the admin surface's HTTP 400.
 */
export function upsertApp(state: EmulatorState, input: unknown, options: ManifestOptions, appId?: string): { app: App; created: boolean } {
  const name = (input as { display_information?: { name?: unknown } } | null)?.display_information?.name;
  const existing = appId ? state.apps.get(appId) : [...state.apps.values()].find((a) => typeof name === "string" && a.name === name.trim());
  if (appId && !existing) throw new WebApiError("app_not_found", {}, { status: 404 });
  const checked = checkManifest(state, input, options, existing ? { replaces: existing } : { creates: true });
  if (checked.problems) throw new WebApiError("invalid_manifest", { errors: checked.problems }, { status: 400 });
  return { app: applyManifest(state, checked.manifest, options, existing), created: !existing };
}

/**
 * The URLs interactions are sent to (each slash command's `url`, the Interactivity Request URL, the Options
 * Load URL), checked by the rule the send uses (interactivity/transport.ts: `url_not_allowed`), so a
 * developer learns it when saving the manifest rather than at the first command. The manifest schema keeps
 * these keys as given, so they are read here as they came.
 */
function interactionUrlProblems(options: Pick<ResolvedOptions, "eventRequestUrls">, manifest: AppManifest): ManifestProblem[] {
  const urls: { url: unknown; pointer: string }[] = [];
  const commands = (manifest.features as Record<string, unknown> | undefined)?.slash_commands;
  if (Array.isArray(commands)) {
    commands.forEach((command: unknown, i) =>
      urls.push({ url: (command as Record<string, unknown> | null)?.url, pointer: `/features/slash_commands/${i}/url` }),
    );
  }
  const interactivity = (manifest.settings as Record<string, unknown> | undefined)?.interactivity as Record<string, unknown> | undefined;
  for (const field of ["request_url", "message_menu_options_url"]) {
    urls.push({ url: interactivity?.[field], pointer: `/settings/interactivity/${field}` });
  }
  return urls
    .filter(({ url }) => typeof url === "string" && !isAllowedRequestUrl(options, url))
    .map(({ pointer }) => ({ message: `This emulator sends interactions only to ${options.eventRequestUrls?.join(", ")}.`, pointer }));
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
    socket_mode_enabled: app.manifest.settings?.socket_mode_enabled === true,
    scopes: { bot: app.botScopes, user: app.userScopes },
    event_subscriptions: {
      request_url: app.eventsRequestUrl ?? null,
      bot_events: app.botEvents,
      user_events: app.userEvents ?? [],
      // The platform turned the app's event subscriptions off (events/event-health.ts): when, and the hour it judged.
      disabled: app.eventsDisabled
        ? {
            at: new Date(app.eventsDisabled.at).toISOString(),
            reason: app.eventsDisabled.reason,
            attempted: app.eventsDisabled.attempted,
            delivered: app.eventsDisabled.delivered,
          }
        : null,
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
