/**
 * Drives an in-process emulator with `new Request(...)` and a fake clock, the way a client would over
 * HTTP: the consent form, form-encoded Web API calls, the admin JSON.
 */
import { expect } from "vitest";
import { createEmulator, createFakeClock, type EmulatorOptions, type FakeClock } from "@/lib/emulator";

export const ORIGIN = "http://localhost:3000";
export const REDIRECT_URI = "http://localhost:3000/oauth/callback";

export interface AdminApp {
  app_id: string;
  name: string;
  client_id: string;
  client_secret: string;
  signing_secret: string;
  redirect_urls: string[];
  token_rotation_enabled: boolean;
  authorize_url: string;
}

/** Response bodies are read loosely: each test asserts the fields it relies on. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it
export type Json = Record<string, any>;

export interface CallOptions {
  token?: string;
  /** Send the token as the `token` parameter instead of a Bearer header. */
  tokenAsParam?: boolean;
  /** App credentials over HTTP Basic instead of the form. */
  basic?: { clientId: string; clientSecret: string };
  json?: boolean;
  method?: "GET" | "POST";
}

export interface InstallOptions {
  scope?: string[];
  userScope?: string[];
  channelId?: string;
  redirectUri?: string;
  state?: string;
  /** Who installs (the consent page's "Installing as"); the workspace's primary owner by default. */
  userId?: string;
}

export function createHarness(options: EmulatorOptions = {}) {
  const clock: FakeClock = createFakeClock(Date.UTC(2026, 0, 1, 9, 0, 0));
  const basePath = options.basePath ?? "";
  const emulator = createEmulator({ users: 40, ...options, clock });
  const base = `${ORIGIN}${basePath}`;

  async function call(method: string, params: Record<string, string> = {}, opts: CallOptions = {}): Promise<{ status: number; headers: Headers; body: Json }> {
    const headers: Record<string, string> = {};
    const all = { ...params };
    if (opts.token && opts.tokenAsParam) all.token = opts.token;
    else if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.basic) {
      headers.authorization = `Basic ${Buffer.from(`${opts.basic.clientId}:${opts.basic.clientSecret}`).toString("base64")}`;
    }
    let request: Request;
    if (opts.method === "GET") {
      request = new Request(`${base}/api/${method}?${new URLSearchParams(all)}`, { headers });
    } else if (opts.json) {
      request = new Request(`${base}/api/${method}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify(all),
      });
    } else {
      request = new Request(`${base}/api/${method}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(all),
      });
    }
    const response = await emulator.fetch(request);
    return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
  }

  async function admin(path: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const response = await emulator.fetch(
      new Request(
        `${base}/admin/${path}`,
        body === undefined ? {} : { method: "POST", headers: { origin: ORIGIN, "content-type": "application/json" }, body: JSON.stringify(body) },
      ),
    );
    return { status: response.status, body: (await response.json()) as Json };
  }

  async function apps(): Promise<{ rotation: AdminApp; legacy: AdminApp; all: AdminApp[] }> {
    const { body } = await admin("apps");
    const all = body.apps as AdminApp[];
    const rotation = all.find((a) => a.token_rotation_enabled && a.name === "Switchboard Rotation");
    const legacy = all.find((a) => a.name === "Switchboard Legacy");
    if (!rotation || !legacy) throw new Error("the default apps are missing");
    return { rotation, legacy, all };
  }

  function authorizeUrl(app: AdminApp, opts: InstallOptions = {}): string {
    const url = new URL(`${base}/oauth/v2/authorize`);
    url.searchParams.set("client_id", app.client_id);
    url.searchParams.set("scope", (opts.scope ?? ["users:read", "chat:write", "channels:join"]).join(","));
    url.searchParams.set("user_scope", (opts.userScope ?? ["users:read"]).join(","));
    url.searchParams.set("redirect_uri", opts.redirectUri ?? REDIRECT_URI);
    url.searchParams.set("state", opts.state ?? "state-123");
    return url.toString();
  }

  /** Submits the consent form, as a person clicking Allow (or Cancel) does. */
  async function decide(url: string, decision: "allow" | "deny", channelId?: string, userId?: string): Promise<Response> {
    const form = new URLSearchParams({ decision });
    if (channelId) form.set("channel_id", channelId);
    if (userId) form.set("user_id", userId);
    return emulator.fetch(new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form }));
  }

  async function authorizeCode(app: AdminApp, opts: InstallOptions = {}): Promise<string> {
    const scope = opts.scope ?? ["users:read", "chat:write", "channels:join"];
    const channelId = scope.includes("incoming-webhook") ? (opts.channelId ?? emulator.state.workspace.channels[0]?.id) : undefined;
    const response = await decide(authorizeUrl(app, opts), "allow", channelId, opts.userId);
    expect(response.status).toBe(302);
    const code = new URL(response.headers.get("location") ?? "").searchParams.get("code");
    if (!code) throw new Error("no code in the redirect");
    return code;
  }

  /** The whole install: consent, then oauth.v2.access. Returns the oauth.v2.access body. */
  async function install(app: AdminApp, opts: InstallOptions = {}): Promise<Json> {
    const code = await authorizeCode(app, opts);
    const { body } = await call("oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret });
    expect(body.ok).toBe(true);
    return body;
  }

  async function refresh(app: AdminApp, refreshToken: string): Promise<Json> {
    const { body } = await call("oauth.v2.access", {
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    return body;
  }

  async function authTest(token: string): Promise<Json> {
    return (await call("auth.test", {}, { token })).body;
  }

  return { emulator, clock, base, call, admin, apps, authorizeUrl, decide, authorizeCode, install, refresh, authTest };
}

export type Harness = ReturnType<typeof createHarness>;
