import { createHash } from "node:crypto";
import type { AppManifest } from "../types";

/** Where the console mounts the embedded emulator: {origin}/emulator is a base_url in the spec's sense (docs/spec/web-api.md, section 4). */
export const EMULATOR_MOUNT_PATH = "/emulator";

export type DefaultAppKey = "rotation" | "legacy";

export interface AppCredentials {
  appId: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
}

function digest(seed: string, label: string): string {
  return createHash("sha256").update(`${seed}\0${label}`).digest("hex");
}

function digits(hex: string, count: number): string {
  let out = "";
  for (let i = 0; out.length < count; i += 2) out += String(parseInt(hex.slice(i, i + 2), 16) % 10);
  return out.replace(/^0/, "1");
}

/**
 * The credentials of the emulator's two default apps, derived from the seed so that the console (which
 * defaults to the embedded emulator) and a standalone emulator started with the same seed agree on them
 * without either reading the other's state. They are emulator-only values, never the platform's.
 */
export function defaultAppCredentials(seed: string, key: DefaultAppKey): AppCredentials {
  return appCredentials(seed, key);
}

/** Credentials for any app label: the default apps use their key, other apps a label from their name. */
export function appCredentials(seed: string, key: string): AppCredentials {
  const h = digest(seed, `app:${key}`);
  return {
    appId: `A0${h
      .slice(0, 9)
      .toUpperCase()
      .replace(/[^0-9A-Z]/g, "X")}`,
    clientId: `${digits(h, 13)}.${digits(h.slice(26), 13)}`,
    clientSecret: digest(seed, `client_secret:${key}`).slice(0, 32),
    signingSecret: digest(seed, `signing_secret:${key}`).slice(0, 32),
  };
}

/** The console's own callback on its default port, registered on both default apps. */
export const DEFAULT_REDIRECT_URL = "http://localhost:3000/oauth/callback";

export const DEFAULT_APP_NAMES: Record<DefaultAppKey, string> = {
  rotation: "Switchboard Rotation",
  legacy: "Switchboard Legacy",
};

const DEFAULT_BOT_SCOPES = [
  "app_mentions:read",
  "channels:history",
  "channels:join",
  "channels:read",
  "chat:write",
  "chat:write.public",
  "incoming-webhook",
  "users:read",
  "users:read.email",
];
const DEFAULT_USER_SCOPES = ["channels:history", "channels:read", "chat:write", "users:read"];

export interface DefaultManifestOptions {
  /** Redirect URLs registered besides DEFAULT_REDIRECT_URL. */
  redirectUrls?: string[];
  /** Where app_mention events are delivered. */
  eventsRequestUrl?: string;
}

/**
 * The manifests of the two apps the emulator ships: the same scopes, one with token rotation on (the
 * console's default) and one without (to try oauth.v2.exchange).
 */
export function defaultAppManifests(options: DefaultManifestOptions = {}): AppManifest[] {
  const redirectUrls = [...new Set([DEFAULT_REDIRECT_URL, ...(options.redirectUrls ?? [])])];
  return (["rotation", "legacy"] as const).map((key) => ({
    display_information: {
      name: DEFAULT_APP_NAMES[key],
      description: key === "rotation" ? "Expiring access tokens with single-use refresh tokens." : "Long-lived tokens; exchange them with oauth.v2.exchange.",
    },
    features: { bot_user: { display_name: key === "rotation" ? "switchboard" : "switchboard-legacy", always_online: true } },
    oauth_config: {
      redirect_urls: redirectUrls,
      scopes: { bot: [...DEFAULT_BOT_SCOPES], user: [...DEFAULT_USER_SCOPES] },
    },
    settings: {
      token_rotation_enabled: key === "rotation",
      org_deploy_enabled: false,
      event_subscriptions: {
        ...(options.eventsRequestUrl ? { request_url: options.eventsRequestUrl } : {}),
        bot_events: ["app_mention"],
      },
    },
  }));
}
