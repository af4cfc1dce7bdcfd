import { afterEach, describe, expect, it, vi } from "vitest";
import { createEmulator } from "@/lib/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { TestBrowser } from "../support/console";

/**
 * The embedded emulator's admin surface through the console's route (app/emulator/[[...path]]), in the
 * two shapes beside the loopback console with sign-in (emulator-admin-access.slow.test.ts):
 * - the developer's own console (loopback, nobody signs in): the Workspace, settings and events pages' server
 *   calls and a script with the console's Origin keep working, as before;
 * - a console behind a proxy (APP_ORIGIN names another host, the server listens on loopback): exposed, so
 *   the emulator answers its admin token only; with sign-in, nobody signed in is told to sign in, a member is
 *   refused as a member, and an admin's session alone is still not the token.
 * Everything runs in this process: the console's sign-in asks the embedded emulator in process (its pages
 * through the same route), as it does on a real console.
 */
const SEED = "emulator-admin-modes";
const USERS = 40;
const ws = createEmulator({ seed: SEED, users: USERS }).state.workspace as Workspace;
const [memberId, admin] = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id)) as [string, string];

async function loadWithEnv(env: Record<string, string>) {
  vi.resetModules();
  // The process's embedded emulator is made once, from the configuration of its first request: a new shape needs a new one.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.embeddedEmulator")];
  for (const [key, value] of Object.entries({
    PLATFORM_BASE_URL: "",
    SESSION_PASSWORD: "x".repeat(32),
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    EMULATOR_SEED: SEED,
    EMULATOR_USERS: String(USERS),
    ...env,
  }))
    vi.stubEnv(key, value);
  const route = await import("@/app/emulator/[[...path]]/route");
  const signInRoute = (await import("@/app/auth/signin/route")).GET;
  const callbackRoute = (await import("@/app/auth/callback/route")).GET;
  const { getConfig } = await import("@/lib/config");
  // Made at start on a real server (instrumentation-node.ts): the sign-in then asks it in process.
  (await import("@/lib/embedded-emulator")).getEmbeddedEmulator();
  const call = (request: Request) => (request.method === "GET" ? route.GET(request) : route.POST(request));
  /** Signs `userId` in, in a new browser: the console's /auth/signin, the emulator's page (this route), the callback. */
  async function signedIn(origin: string, userId: string): Promise<TestBrowser> {
    const browser = new TestBrowser(origin);
    const start = await browser.send(signInRoute, "/auth/signin?next=%2F");
    const authorize = start.headers.get("location") ?? "";
    expect(start.status).toBe(302);
    const form = new URLSearchParams({ decision: "allow", user_id: userId });
    const picked = await call(new Request(authorize, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form }));
    expect(picked.status).toBe(302);
    const callback = new URL(picked.headers.get("location") ?? "");
    expect((await browser.send(callbackRoute, callback.pathname + callback.search)).status).toBe(303);
    return browser;
  }
  return { call, getConfig, signedIn };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("the embedded emulator's admin surface through the console's route", () => {
  it("on the developer's own console (loopback, nobody signs in), answers the console's own pages and scripts as before", async () => {
    const origin = "http://localhost:3999";
    const { call } = await loadWithEnv({ APP_ORIGIN: origin });
    const read = await call(new Request(`${origin}/emulator/admin/state`, { headers: { "sec-fetch-site": "same-origin" } }));
    expect(read.status).toBe(200);
    const changed = await call(
      new Request(`${origin}/emulator/admin/faults`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: '{"latency_ms":0}' }),
    );
    expect(changed.status).toBe(200);
    // Its own guard still stands: another site's page, or a POST that names no origin, is refused.
    const crossSite = await call(
      new Request(`${origin}/emulator/admin/reset`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(crossSite.status).toBe(403);
    const noOrigin = await call(new Request(`${origin}/emulator/admin/reset`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }));
    expect(await noOrigin.json()).toMatchObject({ error: "missing_origin" });
  });

  it("behind a proxy (APP_ORIGIN another host, listening on loopback) with sign-in, answers the admin token only: not signed in 401, a member 403, an admin's session 401", async () => {
    const origin = "https://console.example.com";
    const token = "t".repeat(43);
    const { call, getConfig, signedIn } = await loadWithEnv({ APP_ORIGIN: origin, AUTH_MODE: "oidc", ADMIN_USERS: admin, EMULATOR_ADMIN_TOKEN: token });
    expect(getConfig().exposed).toBe(true);
    // What the proxy forwards of a browser's same-origin request: the public Host and Origin.
    const asBrowser = (browser: TestBrowser, path: string) =>
      call(browser.request(path, { method: "POST", json: { error_rate: 1 }, headers: { host: "console.example.com" } }));

    const stranger = await asBrowser(new TestBrowser(origin), "/emulator/admin/faults");
    expect(stranger.status).toBe(401);
    expect(await stranger.json()).toMatchObject({ error: "sign_in_required" });

    const member = await asBrowser(await signedIn(origin, memberId), "/emulator/admin/faults");
    expect(member.status).toBe(403);
    expect(await member.json()).toMatchObject({ error: "emulator_admin_only" });

    // Exposed, the emulator's rule is the token's, reads included: an admin uses the console's pages (which call it with the token) or the token.
    const boss = await asBrowser(await signedIn(origin, admin), "/emulator/admin/faults");
    expect(boss.status).toBe(401);
    expect(await boss.json()).toMatchObject({ error: "admin_token_required" });

    const scripted = await call(new Request(`${origin}/emulator/admin/state`, { headers: { authorization: `Bearer ${token}` } }));
    expect(scripted.status).toBe(200);
    expect(((await scripted.json()) as { faults: { error_rate: number } }).faults.error_rate).toBe(0);
  });
});
