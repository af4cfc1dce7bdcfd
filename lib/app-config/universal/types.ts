/**
 * The app settings page's types, shared by the server (lib/app-config) and the browser (components/settings).
 * Nothing here holds a secret: credentials and tokens reach these shapes masked.
 */

import type { Upstream } from "@/lib/config";
import type { AppKey, InstallationState } from "@/lib/installations/universal/view";
import type { TokenKind } from "@/lib/installations/universal/token-kind";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** An app manifest in the platform's shape (display_information, oauth_config, settings, …), as JSON. */
export type AppManifest = JsonObject;

/** Which way the console reads and changes an app's configuration. */
export type AppConfigBackendKind = "emulator-admin" | "manifest-api";

/** One reason the platform refuses a manifest: the `errors` items of `invalid_manifest`. */
export interface ManifestProblem {
  message: string;
  /** A JSON pointer into the manifest, such as `/oauth_config/scopes/bot/0`. */
  pointer: string;
}

/** The platform's url_verification of an event request URL, as the emulator's admin surface reports it. */
export interface RequestUrlVerification {
  url: string;
  state: "pending" | "verified" | "failed";
  /** ISO time of the last attempt. */
  at: string;
  durationMs: number | null;
  /** HTTP status of the answer, when there was one. */
  status: number | null;
  failure: string | null;
}

/** Why and since when the platform sends an app no events: its deliveries mostly failed (fewer than 5% in an hour). */
export interface EventsDisabled {
  /** ISO time it was disabled. */
  at: string;
  /** `delivery_failures`. */
  reason: string;
  /** Deliveries finished in the hour that judged it, and how many of them the app answered 2xx. */
  attempted: number;
  delivered: number;
}

/** The configuration token as the browser may see it. */
export interface ConfigTokenView {
  maskedToken: string;
  maskedRefreshToken: string;
  /** Epoch ms by the server's clock: the console rotates it before then. */
  expiresAt: number;
  /** Epoch ms of the last tooling.tokens.rotate (the console rotates at once when a pair is pasted). */
  rotatedAt: number;
  teamId: string | null;
  userId: string | null;
}

/** An app the page can open: from this session's installations, or listed by the emulator's admin surface. */
export interface AppChoice {
  appId: string;
  name: string;
  source: "installation" | "emulator";
}

/** GET /api/app-config */
export interface AppConfigOverview {
  ok: true;
  upstream: Upstream;
  /** Which emulator the upstream is (a standalone one has a platform-kind upstream), null for the real platform: its "Generate Token" stand-in is offered only with one. */
  emulator: "embedded" | "standalone" | null;
  /** null: against the platform without a configuration token, nothing can be read yet. */
  backend: AppConfigBackendKind | null;
  configToken: ConfigTokenView | null;
  apps: AppChoice[];
  /** The app the page opens first: an installation's, else (emulator) the console's own app. */
  defaultAppId: string | null;
  serverTime: number;
}

export interface MaskedCredentials {
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  /** Where they come from: the emulator's admin surface, or this console's own configuration for its app. */
  source: "emulator-admin" | "console-config";
}

/** One token of an installation, as the migration guide shows it. */
export interface MigrationToken {
  kind: TokenKind;
  masked: string;
  rotating: boolean;
  expiresAt: number | null;
  revoked: boolean;
}

/** What the emulator's admin state says of a token (masked): `exchanged` once oauth.v2.exchange replaced it. */
export interface EmulatorTokenRecord {
  kind: string;
  masked: string;
  state: string;
  rotating: boolean;
  issuedAt: string | null;
  exchangedFor: string | null;
}

export interface AppInstallation {
  id: string;
  appKey: AppKey;
  team: { id: string; name: string };
  state: InstallationState;
  tokens: MigrationToken[];
  /** `/oauth/install?…` that installs this app again into this workspace with the manifest's scopes. */
  reinstallHref: string;
  /** With the embedded emulator: every token the emulator issued to this installation, masked, with its state. */
  emulatorTokens: EmulatorTokenRecord[] | null;
}

/** GET /api/app-config/apps/{appId} */
export interface AppSettingsView {
  ok: true;
  backend: AppConfigBackendKind;
  appId: string;
  name: string;
  /** null when neither the backend nor this console's configuration knows them. */
  credentials: MaskedCredentials | null;
  redirectUrls: string[];
  scopes: { bot: string[]; user: string[] };
  events: {
    requestUrl: string | null;
    botEvents: string[];
    userEvents: string[];
    /** undefined: the backend cannot tell (the platform's manifest API does not report it). */
    verification: RequestUrlVerification | null | undefined;
    canVerify: boolean;
    /** Event delivery disabled by the platform: why and since when; null while it delivers; undefined: the backend cannot tell. */
    disabled: EventsDisabled | null | undefined;
    /** Whether this console can enable delivery again (the emulator's admin surface; the platform's API cannot). */
    canEnable: boolean;
  };
  tokenRotationEnabled: boolean;
  manifest: AppManifest;
  /** This session's installations of the app. */
  installations: AppInstallation[];
  /**
   * `/oauth/install?…` with the manifest's scopes when this console can install the app (its own app, or
   * the embedded emulator's legacy app); null for any other app.
   */
  installHref: string | null;
  configToken: ConfigTokenView | null;
}

/** POST /api/app-config/token, …/token/rotate and …/token/generate: the configuration token now kept, masked. */
export interface ConfigTokenAnswer {
  ok: true;
  configToken: ConfigTokenView;
}

/** POST /api/app-config/apps/{appId}/scopes and …/rotation */
export interface ManifestChangeResult {
  ok: true;
  permissionsUpdated: boolean;
  settings: AppSettingsView;
}

/** POST /api/app-config/apps/{appId}/exchange: step 2 and 4 of the migration guide for one token. */
export interface MigrationExchangeResult {
  ok: true;
  kind: TokenKind;
  original: { masked: string; authTest: { ok: boolean; error: string | null } };
  replacement: { masked: string; expiresAt: number | null; maskedRefreshToken: string | null; authTest: { ok: boolean; error: string | null } };
  settings: AppSettingsView;
}
