import { scopeProblem, type InstallTokenKind } from "@/lib/emulator/scopes";
import type { AppManifest, JsonObject, JsonValue } from "./types";

/**
 * Reading and changing the parts of a manifest the settings page shows. The manifest is the platform's
 * JSON, kept whole: apps.manifest.update replaces the entire configuration, so a change copies every other
 * key as it came (slash commands, interactivity, `_metadata`, …).
 */

function objectAt(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
}

function stringsAt(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** The fields of a manifest the page shows, turned into the console's own shape. */
export function reshapeManifest(manifest: AppManifest) {
  const display = objectAt(manifest.display_information);
  const oauth = objectAt(manifest.oauth_config);
  const scopes = objectAt(oauth?.scopes);
  const settings = objectAt(manifest.settings);
  const events = objectAt(settings?.event_subscriptions);
  const requestUrl = events?.request_url;
  return {
    name: typeof display?.name === "string" ? display.name : "",
    redirectUrls: stringsAt(oauth?.redirect_urls),
    scopes: { bot: stringsAt(scopes?.bot), user: stringsAt(scopes?.user) },
    events: {
      requestUrl: typeof requestUrl === "string" ? requestUrl : null,
      botEvents: stringsAt(events?.bot_events),
      userEvents: stringsAt(events?.user_events),
    },
    tokenRotationEnabled: settings?.token_rotation_enabled === true,
  };
}

/** The same manifest with these bot and user scopes (an empty list leaves the key out, as the platform exports it). */
export function withScopes(manifest: AppManifest, bot: readonly string[], user: readonly string[]): AppManifest {
  const oauth = objectAt(manifest.oauth_config) ?? {};
  const { bot: _bot, user: _user, ...otherScopes } = objectAt(oauth.scopes) ?? {};
  const scopes: JsonObject = { ...otherScopes, ...(bot.length > 0 ? { bot: [...bot] } : {}), ...(user.length > 0 ? { user: [...user] } : {}) };
  return { ...manifest, oauth_config: { ...oauth, scopes } };
}

/** The same manifest with token rotation on. */
export function withTokenRotation(manifest: AppManifest): AppManifest {
  const settings = objectAt(manifest.settings) ?? {};
  return { ...manifest, settings: { ...settings, token_rotation_enabled: true } };
}

/** A scope list as a person types it: names separated by commas or spaces, duplicates dropped, order kept. */
export function parseScopeList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Why each of these scopes cannot go in `kind`'s list: the platform's own list (docs/reference/scopes.json,
 * shared with the emulator), which its install answers with invalid_scope. A scope the manifest already
 * holds (`kept`) is the platform's to judge: the recorded list may lag behind a scope it added since.
 */
export function scopeProblems(kind: InstallTokenKind, scopes: readonly string[], kept: readonly string[] = []): string[] {
  return scopes.filter((scope) => !kept.includes(scope)).flatMap((scope) => scopeProblem(scope, kind) ?? []);
}
