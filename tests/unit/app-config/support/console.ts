/**
 * The console under test for app settings: an emulator served over real HTTP (with an event request URL
 * that answers url_verification, so verification has something to show), the console's configuration
 * pointed at it, and helpers to reach its admin surface as a test (never as the console does).
 */
import { randomBytes } from "node:crypto";
import { defaultAppCredentials, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { TestBrowser } from "../../support/console";
import { answeringChallenges } from "../../emulator/support/request-url";

export const SEED = "app-config-tests";
export const REDIRECT_URI = "http://localhost:3000/oauth/callback";
/** The default apps' request URL: deliveries go to answeringChallenges, so any address will do. */
export const EVENTS_URL = "http://127.0.0.1:9/api/events";

export type Upstream = "emulator" | "platform";

export interface AppConfigConsole {
  emulator: EmulatorServer;
  /** The console's origin (APP_ORIGIN). */
  origin: string;
  /** The emulator's own origin, for the test's admin calls. */
  emulatorOrigin: string;
  browser(): TestBrowser;
  admin<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  appIds(): Promise<{ rotation: string; legacy: string }>;
  close(): Promise<void>;
}

/**
 * Starts the emulator and points the (not yet read) configuration at it: as the embedded emulator
 * (`emulator`), or as the real platform would be, through PLATFORM_BASE_URL with the app's credentials
 * (`platform`), where the console may use nothing but the platform's own methods.
 */
export async function startAppConfigConsole(upstream: Upstream, options: { refreshGraceSeconds?: number; appOrigin?: string } = {}): Promise<AppConfigConsole> {
  const adminToken = randomBytes(32).toString("base64url");
  const emulator = await startEmulatorServer({
    basePath: "/emulator",
    users: 30,
    seed: SEED,
    refreshGraceSeconds: options.refreshGraceSeconds ?? 60,
    eventsRequestUrl: EVENTS_URL,
    deliverEvent: answeringChallenges(async () => new Response("ok")),
    // The console reaches its emulator's admin surface with the admin token, which the two must share.
    admin: { token: adminToken },
  });
  const emulatorOrigin = `http://127.0.0.1:${emulator.port}`;
  const origin = options.appOrigin ?? emulatorOrigin;
  const rotation = defaultAppCredentials(SEED, "rotation");
  for (const key of ["PLATFORM_BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "SIGNING_SECRET", "REDIS_URL"]) delete process.env[key];
  Object.assign(process.env, {
    APP_ORIGIN: origin,
    REDIRECT_URI,
    EMULATOR_SEED: SEED,
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "silent",
    // Some tests serve the console at an https origin beyond this machine, which must then say who may use it.
    AUTH_MODE: "none",
    // A store of this test file's own, gone with it (the default DATA_DIR is the project's .data/).
    DATA_DIR: "memory://",
    ...(upstream === "platform"
      ? {
          PLATFORM_BASE_URL: `${emulatorOrigin}/emulator`,
          CLIENT_ID: rotation.clientId,
          CLIENT_SECRET: rotation.clientSecret,
          SIGNING_SECRET: rotation.signingSecret,
        }
      : {}),
  });
  const admin = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${emulatorOrigin}/emulator/admin/${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { origin: emulatorOrigin, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as T;
  };
  return {
    emulator,
    origin,
    emulatorOrigin,
    browser: () => new TestBrowser(origin),
    admin,
    async appIds() {
      const { apps } = await admin<{ apps: { app_id: string; name: string }[] }>("apps");
      return {
        rotation: apps.find((a) => a.name === "Switchboard Rotation")!.app_id,
        legacy: apps.find((a) => a.name === "Switchboard Legacy")!.app_id,
      };
    },
    close: () => emulator.close(),
  };
}

/** "Generate Token" on the emulator's stand-in for the Your Apps page: the pair a developer would copy. */
export async function issueConfigToken(console: AppConfigConsole): Promise<{ token: string; refresh_token: string }> {
  return console.admin("config-tokens", {});
}

/** A token that is not masked: its prefix followed by at least 10 token characters. */
export const RAW_TOKEN = /xox[abpe][.-][A-Za-z0-9-]{10,}/;
