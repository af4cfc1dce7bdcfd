import { createEmulator, createFakeClock, DEFAULT_REDIRECT_URL, type App, type Emulator, type EmulatorOptions, type FakeClock } from "@/lib/emulator";

/** Drives an in-process emulator the way a client does: over Request/Response, with a fake clock. */

export const ORIGIN = "http://localhost:3211";
export const BASE = `${ORIGIN}/emulator`;
export const EVENTS_URL = "http://localhost:3212/api/events";
/** What a script sends to the admin surface with a body: its own origin, and JSON. */
export const ADMIN_HEADERS = { origin: ORIGIN, "content-type": "application/json" };

export interface TestEmulator {
  emulator: Emulator;
  clock: FakeClock;
}

export function startEmulator(options: EmulatorOptions = {}): TestEmulator {
  const clock = createFakeClock();
  const emulator = createEmulator({ basePath: "/emulator", seed: "workspace-tests", users: 500, clock, eventsRequestUrl: EVENTS_URL, ...options });
  return { emulator, clock };
}

export type Json = Record<string, unknown> & { ok?: boolean; error?: string };

/** A Web API call, form-encoded POST with a Bearer token, as the official client sends it. */
export async function callApi(emulator: Emulator, method: string, params: Record<string, string | number> = {}, token?: string): Promise<Json> {
  const response = await emulator.fetch(
    new Request(`${BASE}/api/${method}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString(),
    }),
  );
  return (await response.json()) as Json;
}

export function appNamed(emulator: Emulator, name: "Switchboard Rotation" | "Switchboard Legacy" | string): App {
  const app = [...emulator.state.apps.values()].find((a) => a.name === name);
  if (!app) throw new Error(`no app named ${name}`);
  return app;
}

export interface Installed {
  app: App;
  botToken: string;
  userToken: string | undefined;
  botUserId: string;
  webhookUrl: string | undefined;
  installationId: string;
  response: Json;
}

/** The whole OAuth install: consent page allowed, code exchanged with oauth.v2.access. */
export async function install(
  emulator: Emulator,
  options: { app?: string; botScopes?: string[]; userScopes?: string[]; webhookChannel?: string } = {},
): Promise<Installed> {
  const app = appNamed(emulator, options.app ?? "Switchboard Rotation");
  const botScopes = options.botScopes ?? app.botScopes;
  const query = new URLSearchParams({
    client_id: app.clientId,
    scope: botScopes.join(","),
    user_scope: (options.userScopes ?? []).join(","),
    redirect_uri: DEFAULT_REDIRECT_URL,
    state: "s",
  });
  const general = emulator.state.workspace.channels.find((c) => c.isGeneral)!;
  const decision = await emulator.fetch(
    new Request(`${BASE}/oauth/v2/authorize?${query}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow", channel_id: options.webhookChannel ?? general.id }).toString(),
    }),
  );
  const code = new URL(decision.headers.get("location") ?? "http://x/").searchParams.get("code");
  if (decision.status !== 302 || !code) throw new Error(`consent failed: ${decision.status}`);
  const response = await callApi(emulator, "oauth.v2.access", { client_id: app.clientId, client_secret: app.clientSecret, code });
  if (!response.ok) throw new Error(`oauth.v2.access failed: ${response.error}`);
  const installation = [...emulator.state.installations.values()].find((i) => i.appId === app.id)!;
  const hook = response.incoming_webhook as { url?: string } | undefined;
  return {
    app,
    botToken: response.access_token as string,
    userToken: (response.authed_user as { access_token?: string } | undefined)?.access_token,
    botUserId: response.bot_user_id as string,
    webhookUrl: hook?.url,
    installationId: installation.id,
    response,
  };
}

/** Walks users.list (or any cursor method) to the end; returns every page. */
export async function walk(emulator: Emulator, method: string, token: string, params: Record<string, string | number> = {}, key = "members") {
  const pages: Json[] = [];
  let cursor = "";
  for (let guard = 0; guard < 100_000; guard++) {
    const page = await callApi(emulator, method, { ...params, ...(cursor ? { cursor } : {}) }, token);
    if (!page.ok) throw new Error(`${method} failed: ${page.error}`);
    pages.push(page);
    cursor = (page.response_metadata as { next_cursor: string }).next_cursor;
    if (!cursor) break;
  }
  const items = pages.flatMap((p) => p[key] as Array<{ id: string }>);
  return { pages, items };
}
