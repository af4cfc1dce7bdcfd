import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { POST as reportRoute } from "@/app/api/v1/installations/[teamId]/token/report/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { findInstallation, readTimeline } from "@/lib/installations/repository";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 36, item 2: a backend reports that the token the API gave it failed, with the platform's error.
 * The console honours it only when that token is still the one stored and auth.test refuses it: then it
 * records the death and answers a refreshed token (or 409 needs_reinstall when nothing can renew it). Any
 * other report answers the current token and changes nothing, so no backend can make the console drop a
 * token other backends still hold.
 */
let testConsole: TestConsole;
let operator: TestBrowser;
let consoleKey: string;
let legacyKey: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
  operator = new TestBrowser(testConsole.origin);
  for (const [app, assign] of [
    ["console", (k: string) => (consoleKey = k)],
    ["legacy", (k: string) => (legacyKey = k)],
  ] as const) {
    const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: `${app} backend`, app } });
    expect(created.status).toBe(201);
    assign(((await created.json()) as { key: string }).key);
  }
});
afterAll(() => testConsole.close());

async function install(query = ""): Promise<{ id: string; teamId: string }> {
  const done = await installIn(operator, query);
  expect(done.status).toBe(303);
  const id = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  return { id, teamId: (await findInstallation(id))!.team.id };
}

async function askToken(teamId: string, key = consoleKey): Promise<{ access_token: string }> {
  const response = await tokenRoute(
    new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } }),
    {
      params: Promise.resolve({ teamId }),
    },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { access_token: string };
}

function report(teamId: string, body: unknown, key = consoleKey, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token/report`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return reportRoute(request, { params: Promise.resolve({ teamId }) });
}

async function platform(method: string, token: string): Promise<{ ok: boolean; error?: string }> {
  const response = await fetch(`${testConsole.origin}/emulator/api/${method}`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as { ok: boolean; error?: string };
}

const deaths = async (id: string) => (await readTimeline(await getStore(), id)).entries.filter((e) => e.type === "found_dead");

describe("a backend's report that its token failed", () => {
  it("changes nothing when the platform still accepts the token, and answers it", async () => {
    const { id, teamId } = await install();
    const { access_token } = await askToken(teamId);
    const response = await report(teamId, { kind: "bot", access_token, error: "invalid_auth" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, report: "still_valid", access_token, refreshed: false });
    expect(await deaths(id)).toEqual([]);
    expect((await findInstallation(id, { fresh: true }))!.bot).toMatchObject({ value: access_token });
    expect((await platform("auth.test", access_token)).ok).toBe(true);
  });

  it("answers the current token to a report of one that is no longer stored", async () => {
    const { id, teamId } = await install();
    // A token the platform issued to this installation, then replaced by a refresh: the backend still holds the older one.
    const { access_token: older } = await askToken(teamId);
    const refreshed = await operator.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "bot" } });
    expect(refreshed.status).toBe(200);
    const { access_token } = await askToken(teamId);
    expect(access_token).not.toBe(older);
    const response = await report(teamId, { access_token: older, error: "token_revoked" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ report: "not_current", access_token });
    expect(await deaths(id)).toEqual([]);
  });

  it("records a token the platform refuses, with its error, and answers a refreshed one that works", async () => {
    const { id, teamId } = await install();
    const { access_token: dead } = await askToken(teamId);
    // Revoked on the platform behind the console's back (a rotating token alone: its refresh token lives on).
    expect((await platform("auth.revoke", dead)).ok).toBe(true);
    const response = await report(teamId, { access_token: dead, error: "token_revoked" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; report: string; refreshed: boolean };
    expect(body).toMatchObject({ report: "recorded", refreshed: true });
    expect(body.access_token).not.toBe(dead);
    expect((await platform("auth.test", body.access_token)).ok).toBe(true);
    expect(await deaths(id)).toMatchObject([{ token: "bot", error: "token_revoked", verdict: "token_revoked", by: "the token API (a backend's report)" }]);
    // Every backend asking afterwards gets the new one.
    expect((await askToken(teamId)).access_token).toBe(body.access_token);
  });

  it("marks an installation whose dead token nothing can renew for reinstall: 409 needs_reinstall", async () => {
    const { id, teamId } = await install("?app=legacy");
    const { access_token: dead } = await askToken(teamId, legacyKey);
    // A long-lived token of an app without rotation: revoking it ends the authorization.
    expect((await platform("auth.revoke", dead)).ok).toBe(true);
    const response = await report(teamId, { access_token: dead, error: "invalid_auth" }, legacyKey);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "needs_reinstall" });
    expect((await findInstallation(id, { fresh: true }))!.state).toBe("needs_reinstall");
    expect(await deaths(id)).toHaveLength(1);
  });

  it("refuses a report that is not one, a browser, and a missing key, recording nothing", async () => {
    const { id, teamId } = await install();
    const { access_token } = await askToken(teamId);
    const before = (await deaths(id)).length;
    expect((await report(teamId, "not json")).status).toBe(400);
    expect((await report(teamId, { access_token })).status).toBe(422);
    expect((await report(teamId, { access_token, error: "invalid_auth" }, consoleKey, { origin: testConsole.origin })).status).toBe(403);
    expect((await report(teamId, { access_token, error: "invalid_auth" }, "sbk_not-a-key")).status).toBe(401);
    expect((await report(teamId, { access_token, error: "x".repeat(5000) })).status).toBe(413);
    expect(await deaths(id)).toHaveLength(before);
    expect((await platform("auth.test", access_token)).ok).toBe(true);
  });
});
