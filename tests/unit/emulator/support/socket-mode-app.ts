/**
 * What the Socket Mode tests share: a standalone emulator (adapters/node-server.ts, what `npm run emulator`
 * serves) over real HTTP, an app made and installed as a developer does (manifest, consent page, oauth.v2.access),
 * an app-level token from the admin surface, and a wait that polls.
 */
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import type { Json } from "./emulator-harness";

export const REDIRECT = "http://127.0.0.1:9/socket-app/oauth";

export async function adminCall(server: Pick<EmulatorServer, "url">, path: string, body?: unknown): Promise<Json> {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { origin: new URL(server.url).origin, "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(`${server.url}/admin/${path}`, init);
  return (await response.json()) as Json;
}

export async function webApi(server: Pick<EmulatorServer, "url">, method: string, params: Record<string, string>, token?: string): Promise<Json> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.url}/api/${method}`, { method: "POST", headers, body: new URLSearchParams(params) });
  return (await response.json()) as Json;
}

export interface InstalledApp {
  appId: string;
  botToken: string;
  botUserId: string;
  appToken: string;
  signingSecret: string;
  teamId: string;
}

export interface AppOptions {
  name: string;
  socketMode?: boolean;
  botEvents: string[];
  botScopes: string[];
  requestUrl?: string;
  /** More of `features` (slash_commands, shortcuts) and `settings.interactivity`, as the manifest says them. */
  features?: Json;
  interactivity?: Json;
}

/** The manifest a developer writes for the app: the same one again, with a request URL, updates it. */
export function appManifest(options: AppOptions): Json {
  return {
    display_information: { name: options.name },
    features: { bot_user: { display_name: options.name.toLowerCase().replace(/\W+/g, "-") }, ...options.features },
    oauth_config: { redirect_urls: [REDIRECT], scopes: { bot: options.botScopes } },
    settings: {
      socket_mode_enabled: options.socketMode ?? true,
      ...(options.interactivity ? { interactivity: options.interactivity } : {}),
      event_subscriptions: { bot_events: options.botEvents, ...(options.requestUrl ? { request_url: options.requestUrl } : {}) },
    },
  };
}

/** Creates the app from its manifest, installs it (a person clicks Allow), and makes an app-level token. */
export async function createSocketModeApp(server: Pick<EmulatorServer, "url">, options: AppOptions): Promise<InstalledApp> {
  const created = await adminCall(server, "apps", appManifest(options));
  if (!created.ok) throw new Error(`the app was refused: ${JSON.stringify(created)}`);
  const app = created.app as Json;
  const authorize = new URL(`${server.url}/oauth/v2/authorize`);
  authorize.searchParams.set("client_id", app.client_id);
  authorize.searchParams.set("scope", options.botScopes.join(","));
  authorize.searchParams.set("redirect_uri", REDIRECT);
  authorize.searchParams.set("state", "s");
  const allowed = await fetch(authorize, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ decision: "allow" }),
    redirect: "manual",
  });
  const code = new URL(allowed.headers.get("location") ?? "http://x/").searchParams.get("code");
  if (!code) throw new Error(`no code: ${allowed.status} ${await allowed.text()}`);
  const access = await webApi(server, "oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: REDIRECT });
  if (!access.ok) throw new Error(`oauth.v2.access: ${JSON.stringify(access)}`);
  const token = await adminCall(server, `apps/${app.app_id}/app-tokens`, { name: "socket", scopes: ["connections:write"] });
  return {
    appId: app.app_id,
    botToken: access.access_token,
    botUserId: access.bot_user_id,
    appToken: token.token,
    signingSecret: app.signing_secret,
    teamId: access.team.id,
  };
}

export async function startStandalone(): Promise<EmulatorServer> {
  return startEmulatorServer({ port: 0, users: 30, seed: "socket-mode-tests" });
}

export async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
