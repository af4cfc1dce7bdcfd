/**
 * The App Manifest API: apps.manifest.export, .validate, .update, .create and .delete, called with an app
 * configuration token (see tokens/config-tokens.ts). Arguments, answers, rate tiers and error codes are the
 * platform's documented ones; a refused manifest answers `invalid_manifest` with an `errors` array of
 * `{message, pointer}`, HTTP 200 like every Web API error.
 */
import { applyManifest, authorizeUrl, checkManifest, MANIFEST_TOO_DEEP, type ManifestPurpose } from "../../apps/registry";
import { WebApiError } from "../../core/errors";
import { parseJsonWithin } from "../../core/json-depth";
import { verificationToken } from "../../events/event-signing";
import { uninstall } from "../../oauth/installations";
import type { App, AppManifest, MethodContext, MethodDefinition } from "../../types";

/** What an app id looks like: the platform tells a malformed one (invalid_app_id) from an unknown one. */
const APP_ID_PATTERN = /^A[0-9A-Z]{2,}$/;

/**
 * The app named by app_id. A missing or malformed id is invalid_app_id; an unknown one is what the method's
 * documentation lists: app_not_found for export and delete, invalid_app_id for update and validate.
 */
function requireApp(ctx: MethodContext, unknownError: "app_not_found" | "invalid_app_id"): App {
  const id = ctx.params.app_id ?? "";
  if (!APP_ID_PATTERN.test(id)) throw new WebApiError("invalid_app_id");
  const app = ctx.state.apps.get(id);
  if (!app) throw new WebApiError(unknownError);
  return app;
}

/** The manifest argument: a JSON object encoded as a string (a JSON body's object arrives stringified). */
function readManifest(ctx: MethodContext): unknown {
  const raw = ctx.params.manifest;
  if (raw === undefined || raw.trim() === "") {
    throw new WebApiError("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing required field: manifest"] } });
  }
  const parsed = parseJsonWithin(raw);
  if (parsed.ok) return parsed.value;
  if (parsed.problem === "too_deep") throw new WebApiError("invalid_manifest", { errors: [MANIFEST_TOO_DEEP] });
  throw new WebApiError("invalid_manifest", { errors: [{ message: "The manifest is not valid JSON.", pointer: "/" }] });
}

/** The checked manifest, or the platform's invalid_manifest with every problem found. */
function validManifest(ctx: MethodContext, purpose: ManifestPurpose): AppManifest {
  const checked = checkManifest(ctx.state, readManifest(ctx), ctx.options, purpose);
  if (checked.problems) throw new WebApiError("invalid_manifest", { errors: checked.problems });
  return checked.manifest;
}

/**
 * The manifest as the platform exports it: `_metadata` first, the settings the platform always writes
 * out filled in (token rotation as it is now), every other key as it was given.
 */
function exportedManifest(app: App): Record<string, unknown> {
  const { _metadata, settings, ...rest } = app.manifest;
  return {
    _metadata: _metadata ?? { major_version: 1, minor_version: 1 },
    ...rest,
    settings: {
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      is_hosted: false,
      ...settings,
      token_rotation_enabled: app.tokenRotationEnabled,
    },
  };
}

function sameScopes(before: string[], after: string[]): boolean {
  const a = new Set(before);
  const b = new Set(after);
  return a.size === b.size && [...a].every((scope) => b.has(scope));
}

export const appsManifestMethods: MethodDefinition[] = [
  {
    name: "apps.manifest.export",
    tier: 3,
    auth: "config",
    json: true,
    handler(ctx) {
      return { manifest: exportedManifest(requireApp(ctx, "app_not_found")) };
    },
  },
  {
    name: "apps.manifest.validate",
    tier: 3,
    auth: "config",
    json: true,
    handler(ctx) {
      // With app_id, the manifest is also checked as that app's next one (token rotation stays on, the name is free).
      validManifest(ctx, ctx.params.app_id ? { replaces: requireApp(ctx, "invalid_app_id") } : { alone: true });
      return { errors: [] };
    },
  },
  {
    name: "apps.manifest.update",
    tier: 1,
    auth: "config",
    json: true,
    handler(ctx) {
      const existing = requireApp(ctx, "invalid_app_id");
      const app = applyManifest(ctx.state, validManifest(ctx, { replaces: existing }), ctx.options, existing);
      // The platform says whether the scopes changed: installations then need reinstalling to get them.
      const permissionsUpdated = !sameScopes(existing.botScopes, app.botScopes) || !sameScopes(existing.userScopes, app.userScopes);
      return { app_id: app.id, permissions_updated: permissionsUpdated };
    },
  },
  {
    name: "apps.manifest.create",
    tier: 1,
    auth: "config",
    json: true,
    handler(ctx) {
      const app = applyManifest(ctx.state, validManifest(ctx, { creates: true }), ctx.options);
      return {
        app_id: app.id,
        credentials: {
          client_id: app.clientId,
          client_secret: app.clientSecret,
          verification_token: verificationToken(app),
          signing_secret: app.signingSecret,
        },
        oauth_authorize_url: authorizeUrl(app, ctx.baseUrl),
      };
    },
  },
  {
    name: "apps.manifest.delete",
    tier: 1,
    auth: "config",
    json: true,
    handler(ctx) {
      const app = requireApp(ctx, "app_not_found");
      // A deleted app's installations go with it: every token revoked, as after apps.uninstall.
      for (const installation of ctx.state.installations.values()) {
        if (installation.appId === app.id && !installation.uninstalled) uninstall(ctx.state, installation, ctx.clock.now());
      }
      ctx.state.apps.delete(app.id);
      return {};
    },
  },
];
