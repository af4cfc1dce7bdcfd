import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as emulatorGet, POST as emulatorPost } from "@/app/emulator/[[...path]]/route";
import { getConfig, parseConfig } from "@/lib/config";
import { createEmulator } from "@/lib/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { startTestConsole, TestBrowser, type RouteFn, type TestConsole } from "../support/console";
import { returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

/**
 * The embedded emulator's admin surface ({console}/emulator/admin/…, served by app/emulator/[[...path]]) on a
 * console where people sign in (AUTH_MODE=oidc) and which listens on loopback, so the emulator's own "exposed:
 * the admin token only" rule does not apply. Before the console checked the session there, anyone whose
 * request reached the console (a member, a person not signed in, a request through a proxy on this machine)
 * read the apps' secrets, issued configuration tokens, posted as any member, injected faults and reset it.
 * Now: a signed-in admin or the admin token; a member 403 emulator_admin_only, nobody signed in 401
 * sign_in_required; the platform's own pages and Web API under /emulator answer as before.
 */
let testConsole: TestConsole;
let admin: string;
let memberId: string;

const route = ((request: Request) => (request.method === "GET" ? emulatorGet(request) : emulatorPost(request))) as RouteFn;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  // The embedded emulator (the route's, which the console's sign-in then asks in process) is made as the configuration says.
  const { emulator } = parseConfig(process.env);
  const ws = createEmulator({ seed: emulator.seed, users: emulator.users, workspaces: emulator.workspaces }).state.workspace as Workspace;
  const members = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
  [memberId, admin] = [members[0]!, members[1]!];
  // Read by the console's configuration on its first request, which has not come yet.
  process.env.ADMIN_USERS = admin;
});
afterAll(() => {
  delete process.env.ADMIN_USERS;
  return testConsole.close();
});

/** A browser signed in as `userId` on the embedded emulator's sign-in page (served by the same route), as a person picks themselves there. */
async function signedIn(userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  expect((await emulatorGet(new Request(authorize))).status).toBe(200);
  const picked = await emulatorPost(
    new Request(authorize, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow", user_id: userId }),
    }),
  );
  expect(picked.status).toBe(302);
  const back = await returnToConsole(browser, new URL(picked.headers.get("location") ?? ""));
  expect(back.status).toBe(303);
  return browser;
}

/** What the surface's routes do, one of each kind: read secrets, issue a token, act as a member, change faults, reset. */
const ADMIN_CALLS: Array<{ what: string; path: string; body?: unknown }> = [
  { what: "reads every app's client and signing secrets", path: "/emulator/admin/apps" },
  { what: "reads the whole state (every workspace, installation, token masked, message)", path: "/emulator/admin/state" },
  { what: "reads a member's conversations", path: "/emulator/admin/workspace/member" },
  { what: "issues an app configuration token", path: "/emulator/admin/config-tokens", body: {} },
  { what: "posts as any member", path: "/emulator/admin/act/post", body: { text: "posted by whoever reached the console" } },
  { what: "injects faults into every Web API call", path: "/emulator/admin/faults", body: { error_rate: 1 } },
  { what: "moves the platform's clock", path: "/emulator/admin/clock", body: { advance_s: 3600 } },
  { what: "resets the emulator", path: "/emulator/admin/reset", body: {} },
];

/** A request as the console's own page would send it from this browser (same origin, a JSON body for a POST). */
function send(browser: TestBrowser, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return browser.send(route, path, body === undefined ? { headers } : { method: "POST", json: body, headers });
}

/** The embedded emulator's state as the admin token reads it, to see that a refused call changed nothing. */
async function stateByToken() {
  const response = await emulatorGet(
    new Request(`${testConsole.origin}/emulator/admin/state`, { headers: { authorization: `Bearer ${getConfig().emulator.adminToken}` } }),
  );
  expect(response.status).toBe(200);
  const state = (await response.json()) as { clock_offset_s: number; faults: { error_rate: number }; config_tokens: unknown[]; channels: unknown[] };
  return { clock: state.clock_offset_s, faults: state.faults, configTokens: state.config_tokens.length, channels: JSON.stringify(state.channels) };
}

describe("the embedded emulator's admin surface when people sign in (on loopback)", () => {
  it("answers nobody who is not signed in: 401 sign_in_required, and nothing changes", async () => {
    const before = await stateByToken();
    const stranger = new TestBrowser(testConsole.origin);
    for (const call of ADMIN_CALLS) {
      const response = await send(stranger, call.path, call.body);
      expect(response.status, `${call.what}: ${call.path}`).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: "sign_in_required" });
    }
    expect(await stateByToken()).toEqual(before);
  });

  it("answers a request through a proxy on this machine (a loopback Host, no Origin) only with a sign-in", async () => {
    // A proxy that forwards to http://127.0.0.1:PORT with its own Host: the request names this console, carries no Origin.
    const viaProxy = await emulatorGet(
      new Request(`${testConsole.origin}/emulator/admin/apps`, { headers: { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" } }),
    );
    expect(viaProxy.status).toBe(401);
    expect(JSON.stringify(await viaProxy.json())).not.toMatch(/client_secret|signing_secret/);
    // Empty path segments are the admin surface's too (the emulator's router skips them).
    expect((await emulatorGet(new Request(`${testConsole.origin}/emulator//admin/apps`))).status).toBe(401);
  });

  it("answers a signed-in member who is not an admin 403 emulator_admin_only, and nothing changes", async () => {
    const member = await signedIn(memberId);
    const before = await stateByToken();
    for (const call of ADMIN_CALLS) {
      const response = await send(member, call.path, call.body);
      expect(response.status, `${call.what}: ${call.path}`).toBe(403);
      const body = (await response.json()) as { error: string; message: string };
      expect(body).toMatchObject({ ok: false, error: "emulator_admin_only" });
      expect(body.message).toMatch(/admin/i);
    }
    expect(await stateByToken()).toEqual(before);
  });

  it("serves a signed-in admin, from the console's own origin only", async () => {
    const boss = await signedIn(admin);
    const apps = await send(boss, "/emulator/admin/apps");
    expect(apps.status).toBe(200);
    expect(((await apps.json()) as { apps: Array<{ client_secret: string }> }).apps[0]?.client_secret).toBeTruthy();
    const posted = await send(boss, "/emulator/admin/act/post", { text: "an admin posts as the primary owner" });
    expect(posted.status).toBe(200);
    const faults = await send(boss, "/emulator/admin/faults", { error_rate: 0 });
    expect(faults.status).toBe(200);
    // The session is the admin's, but the emulator's own guard still refuses another site's page driving this browser.
    const crossSite = await send(boss, "/emulator/admin/faults", { error_rate: 1 }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: "forbidden_origin" });
    expect((await stateByToken()).faults.error_rate).toBe(0);
  });

  it("serves the admin token without a sign-in, and refuses a wrong one", async () => {
    const token = getConfig().emulator.adminToken;
    const withToken = await emulatorGet(new Request(`${testConsole.origin}/emulator/admin/apps`, { headers: { authorization: `Bearer ${token}` } }));
    expect(withToken.status).toBe(200);
    const wrong = await emulatorGet(new Request(`${testConsole.origin}/emulator/admin/apps`, { headers: { authorization: "Bearer not-the-token" } }));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "invalid_admin_token" });
    // An Authorization header of another scheme is no way round the sign-in: the emulator refuses it as a wrong token.
    const basic = await emulatorGet(new Request(`${testConsole.origin}/emulator/admin/apps`, { headers: { authorization: "Basic YWRtaW46YWRtaW4=" } }));
    expect(basic.status).toBe(401);
    expect(await basic.json()).toMatchObject({ error: "invalid_admin_token" });
  });

  it("leaves the platform's own pages and Web API open: the install flow, the sign-in, the index, a token's call", async () => {
    const stranger = new TestBrowser(testConsole.origin);
    const { clientId } = getConfig();
    const consent = await send(stranger, `/emulator/oauth/v2/authorize?client_id=${encodeURIComponent(clientId)}&scope=chat:write`);
    expect(consent.status).toBe(200);
    expect(await consent.text()).toMatch(/Allow/);
    expect((await send(stranger, "/emulator/.well-known/openid-configuration")).status).toBe(200);
    expect((await send(stranger, "/emulator")).status).toBe(200);
    // The Web API answers as the platform does: its own token decides (none here).
    const call = await send(stranger, "/emulator/api/auth.test");
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ ok: false, error: "not_authed" });
  });
});
