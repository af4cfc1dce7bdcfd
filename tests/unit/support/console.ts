import { CONSOLE_REQUEST_HEADER } from "@/lib/console-request";
/**
 * The console under test: the embedded emulator served over real HTTP on an ephemeral port (as the
 * console's upstream), the console's configuration pointed at it, and a cookie-keeping "browser" that
 * drives the console's route handlers with `new Request(...)`.
 */
import { randomBytes } from "node:crypto";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";

/** A redirect URL the emulator's default apps accept out of the box. */
export const REDIRECT_URI = "http://localhost:3000/oauth/callback";

export type RouteFn = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface TestConsole {
  emulator: EmulatorServer;
  origin: string;
  close(): Promise<void>;
}

/** Starts the emulator and points the (not yet read) configuration at it. Call before any getConfig(). */
export async function startTestConsole(
  env: Record<string, string> = {},
  options: { refreshGraceSeconds?: number; redirectUrls?: string[]; workspaces?: number; adminTokenOnly?: boolean } = {},
): Promise<TestConsole> {
  // The console reaches its emulator's admin surface with the admin token, which the two must share.
  const adminToken = randomBytes(32).toString("base64url");
  const emulator = await startEmulatorServer({
    basePath: "/emulator",
    users: 50,
    seed: "session-tests",
    refreshGraceSeconds: options.refreshGraceSeconds ?? 60,
    ...(options.redirectUrls ? { redirectUrls: options.redirectUrls } : {}),
    ...(options.workspaces ? { workspaces: options.workspaces } : {}),
    // adminTokenOnly: as an exposed console's emulator, whose admin surface answers its token and nothing else.
    admin: { token: adminToken, ...(options.adminTokenOnly ? { requireToken: true } : {}) },
  });
  const origin = `http://127.0.0.1:${emulator.port}`;
  Object.assign(process.env, {
    APP_ORIGIN: origin,
    REDIRECT_URI,
    EMULATOR_SEED: "session-tests",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "silent",
    // A store of this test file's own, gone with it (the default DATA_DIR is the project's .data/).
    DATA_DIR: "memory://",
    ...env,
  });
  if (!env.DATABASE_URL) delete process.env.DATABASE_URL;
  delete process.env.PLATFORM_BASE_URL;
  delete process.env.CLIENT_ID;
  delete process.env.CLIENT_SECRET;
  return { emulator, origin, close: () => emulator.close() };
}

/** A browser: keeps the cookies the console sets and sends them back, like Chromium would. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly origin: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** A copy with the same cookies (a second tab, or a request sent with an older cookie). */
  fork(): TestBrowser {
    const copy = new TestBrowser(this.origin);
    for (const [k, v] of this.cookies) copy.cookies.set(k, v);
    return copy;
  }

  absorb(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (/max-age=0/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  request(path: string, init: RequestInit & { json?: unknown } = {}): Request {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader());
    const method = init.method ?? "GET";
    if (method !== "GET" && !headers.has("origin")) headers.set("origin", this.origin);
    // As the console's pages do (lib/swr): reads on cross-site-refusing routes need it without Fetch Metadata.
    if (!headers.has(CONSOLE_REQUEST_HEADER)) headers.set(CONSOLE_REQUEST_HEADER, "1");
    // What Chromium says of a page's own fetch (the timeline names the button only for those: lib/console-request.ts).
    if (!headers.has("sec-fetch-site")) headers.set("sec-fetch-site", "same-origin");
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return new Request(new URL(path, this.origin), { method, headers, ...(body !== undefined ? { body } : {}) });
  }

  /** Sends a request to a route handler and keeps the cookies it sets. */
  async send(route: RouteFn, path: string, init: RequestInit & { json?: unknown; params?: Record<string, string> } = {}): Promise<Response> {
    const response = await route(this.request(path, init), { params: Promise.resolve(init.params ?? {}) });
    this.absorb(response);
    return response;
  }
}

/** The emulator's admin state, as the tests read it. */
export async function emulatorState(origin: string) {
  const response = await fetch(`${origin}/emulator/admin/state`);
  return (await response.json()) as {
    installations: { id: string; app_id: string; refresh_grants: number }[];
    tokens: { kind: string; masked: string; state: string; rotating: boolean }[];
  };
}

/** Clicks through the emulator's consent page as a person would; returns the callback URL it redirects to. */
export async function consentAt(authorizeUrl: string, decision: "allow" | "deny" = "allow", userId?: string): Promise<string> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html.slice(0, 300)}`);
  // The page preselects the workspace's primary owner as who installs; `userId` installs as another member.
  const channel = /<select id="channel_id"[\s\S]*?<option value="([^"]+)" selected/.exec(html)?.[1];
  const form = new URLSearchParams({ decision, ...(channel ? { channel_id: channel } : {}), ...(userId ? { user_id: userId } : {}) });
  const answer = await fetch(authorizeUrl, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`consent answered ${answer.status}`);
  return location;
}

/**
 * Forgets every installation in the console's store: installations live on the server now, shared by every
 * browser, so a test that resets the emulator resets the store with it.
 */
export async function forgetAllInstallations(): Promise<void> {
  const { getStore } = await import("@/lib/store");
  const store = await getStore();
  for (const installation of await store.installations.list()) await store.installations.delete(installation.id);
}
