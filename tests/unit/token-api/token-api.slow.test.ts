import { readFileSync } from "node:fs";
import { CONSOLE_ERRORS } from "@/lib/http/error-codes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETE as revokeKeyRoute } from "@/app/api/api-keys/[id]/route";
import { GET as usesRoute } from "@/app/api/api-keys/[id]/uses/route";
import { GET as listKeysRoute, POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { findInstallation } from "@/lib/installations/repository";
import { getStore } from "@/lib/store";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { apiKeyHash } from "@/lib/token-api/keys";
import { serveToken } from "@/lib/token-api/serve";
import { plainTeamIdInPath } from "@/lib/token-api/warm";
import { tokenFor } from "@/lib/token-api/token-for";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { advanceEmulatorClock } from "../signin/support";

/**
 * Issue 27, the token API for the app's own backend, against the emulator over HTTP: an admin's API key
 * (shown once, kept as a hash) gets a token valid for at least the margin, refreshed single-flight when it
 * would not be; browsers, bad and revoked keys, workspaces out of the key's scope and abuse are refused;
 * every use is audited.
 */
let testConsole: TestConsole;
let operator: TestBrowser;
let teamId: string;
let installationId: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", TOKEN_API_MARGIN_S: "3600", TOKEN_API_RATE_PER_S: "50" });
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  installationId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  teamId = installationId.split("-")[0]!;
});
afterAll(() => testConsole.close());

async function createKey(body: Record<string, unknown>): Promise<{ key: string; apiKey: { id: string; prefix: string } }> {
  const response = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: body });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { key: string; apiKey: { id: string; prefix: string } };
}

/** A backend's request: no Origin, no Cookie, no Fetch Metadata. */
async function askToken(key: string | null, team: string, query = "", headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`${testConsole.origin}/api/v1/installations/${team}/token${query}`, {
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
  return tokenRoute(request, { params: Promise.resolve({ teamId: team }) });
}

const grants = () => [...testConsole.emulator.emulator.state.installations.values()].reduce((n, i) => n + i.refreshGrants, 0);

describe("the token API", () => {
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    ({
      key,
      apiKey: { id: keyId },
    } = await createKey({ name: "billing worker" }));
  });

  it("shows a key once and keeps only its hash", async () => {
    expect(key).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    const listed = (await (await operator.send(listKeysRoute, "/api/api-keys")).json()) as { apiKeys: Array<Record<string, unknown>> };
    expect(listed.apiKeys.find((k) => k.id === keyId)).toMatchObject({ name: "billing worker", prefix: key.slice(0, 8) });
    expect(JSON.stringify(listed)).not.toContain(key);
    expect(JSON.stringify(listed)).not.toContain(apiKeyHash(key));
    // The store finds it by its hash.
    expect((await (await getStore()).apiKeys.findByHash(apiKeyHash(key)))?.id).toBe(keyId);
  });

  it("answers the installation's bot token with its expiry and scopes, valid for at least the margin, and audits it", async () => {
    const response = await askToken(key, teamId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Record<string, unknown>;
    const stored = (await findInstallation(installationId))!;
    expect(body).toMatchObject({
      ok: true,
      team_id: teamId,
      installation_id: installationId,
      kind: "bot",
      access_token: stored.bot!.value,
      refreshed: false,
      margin_s: 3600,
    });
    expect(body.expires_in as number).toBeGreaterThan(3600);
    // The OpenAPI description in docs/ says what the answer holds, and only that.
    const openapi = JSON.parse(readFileSync("docs/token-api.openapi.json", "utf8")) as {
      components: { schemas: { Token: { required: string[]; properties: Record<string, unknown> } } };
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(body).sort()).toEqual([...openapi.components.schemas.Token.required].sort());
    expect(Object.keys(openapi.components.schemas.Token.properties).sort()).toEqual(Object.keys(body).sort());
    expect(Object.keys(openapi.paths["/api/v1/installations/{team_id}/token"]!.get.responses)).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "422",
      "429",
      "500",
      "502",
      "503",
      "504",
    ]);
    expect(body.scopes).toContain("chat:write");
    const uses = (await (await operator.send(usesRoute, `/api/api-keys/${keyId}/uses`, { params: { id: keyId } })).json()) as {
      uses: Array<Record<string, unknown>>;
    };
    expect(uses.uses[0]).toMatchObject({ keyId, teamId, installationId, kind: "bot", refreshed: false, status: 200 });
    expect(JSON.stringify(uses)).not.toContain(stored.bot!.value);
  });

  it("answers a warm request (key, workspace, installation and the platform's time all known) at once, with what the full path answers, audited", async () => {
    expect((await askToken(key, teamId)).status).toBe(200);
    const request = new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
    // No promise: nothing was awaited (issue 43: each await cost the answer a few µs of Next.js's async hooks).
    const warm = serveToken(request, teamId);
    expect(warm).toBeInstanceOf(Response);
    const text = await (warm as Response).text();
    const body = JSON.parse(text) as Record<string, unknown>;
    const apiKey = (await (await getStore()).apiKeys.findByHash(apiKeyHash(key)))!;
    const full = (await tokenFor(installationId, "bot", undefined, apiKey)) as unknown as Record<string, unknown>;
    // The same answer, its seconds left read a moment apart.
    expect({ ...body, expires_in: 0 }).toEqual({ ...full, expires_in: 0 });
    expect(Math.abs((body.expires_in as number) - (full.expires_in as number))).toBeLessThanOrEqual(1);
    // The very text the full path's answer serialises to (the warm path keeps it per token, warm-body.ts), fields in the same order.
    const secondsAside = (json: string) => json.replace(/"expires_in":\d+/, '"expires_in":0');
    expect(secondsAside(text)).toBe(secondsAside(JSON.stringify(full)));
    expect((warm as Response).headers.get("content-type")).toBe("application/json");
    expect((warm as Response).headers.get("cache-control")).toBe("no-store");
    const uses = (await (await operator.send(usesRoute, `/api/api-keys/${keyId}/uses`, { params: { id: keyId } })).json()) as {
      uses: Array<Record<string, unknown>>;
    };
    expect(uses.uses[0]).toMatchObject({ keyId, teamId, installationId, kind: "bot", refreshed: false, status: 200 });
    // The route reads a plain team id from its path: a warm answer does not wait for Next.js's params.
    const direct = tokenRoute(request, { params: new Promise<Record<string, string>>(() => {}) });
    expect(direct).toBeInstanceOf(Response);
    expect(((await (direct as Response).json()) as { access_token: string }).access_token).toBe(body.access_token);
    // A segment with something to decode is Next.js's param, as before.
    const encoded = new Request(`${testConsole.origin}/api/v1/installations/${encodeURIComponent(teamId).replace(/^T/, "%54")}/token`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(plainTeamIdInPath(encoded.url)).toBeUndefined();
    expect((await tokenRoute(encoded, { params: Promise.resolve({ teamId }) })).status).toBe(200);
    // Only a query of exactly `kind=bot` skips parsing: one that merely ends so is read as the full path reads it.
    const sly = new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token?user_id=U1?kind=bot`, { headers: { authorization: `Bearer ${key}` } });
    expect(await (await serveToken(sly, teamId)).json()).toMatchObject({ error: "invalid_request" });
    // A user token, and a query the full path must judge, are the full path's.
    const user = new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token?kind=user&user_id=U0NOBODY1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(serveToken(user, teamId)).toBeInstanceOf(Promise);
    expect(await (await serveToken(user, teamId)).json()).toMatchObject({ error: "unknown_user_token" });
  });

  it("documents in docs/token-api.md every error code its OpenAPI description answers", () => {
    const openapi = JSON.parse(readFileSync("docs/token-api.openapi.json", "utf8")) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const guide = readFileSync("docs/token-api.md", "utf8");
    const descriptions = Object.values(openapi.paths).flatMap((path) =>
      Object.values(path).flatMap((operation) => Object.values(operation.responses).map((r) => r.description)),
    );
    const codes = new Set(descriptions.flatMap((d) => d.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []).filter((word) => word in CONSOLE_ERRORS));
    expect(codes).toContain("no_token");
    for (const code of codes) expect(guide, code).toContain(`\`${code}\``);
  });

  it("answers who the bot is (bot_user_id, bot_id: what Bolt compares), learning the bot id of a record stored without it", async () => {
    const store = await getStore();
    const { version, botId: _learned, ...older } = (await store.installations.get(installationId, { fresh: true }))!;
    await store.installations.put(older, { expectVersion: version });
    const body = (await (await askToken(key, teamId)).json()) as Record<string, unknown>;
    const identity = (await (
      await fetch(`${testConsole.origin}/emulator/api/auth.test`, { method: "POST", headers: { authorization: `Bearer ${body.access_token as string}` } })
    ).json()) as { user_id: string; bot_id: string };
    expect(body).toMatchObject({ bot_user_id: identity.user_id, bot_id: identity.bot_id, enterprise_id: null, is_enterprise_install: false });
    expect((await store.installations.get(installationId, { fresh: true }))!.botId).toBe(identity.bot_id);
  });

  it("answers a person's user token by user_id, and 404 for someone who has none", async () => {
    const stored = (await findInstallation(installationId))!;
    const mine = await askToken(key, teamId, `?kind=user&user_id=${stored.authedUserId}`);
    expect(await mine.json()).toMatchObject({ kind: "user", user_id: stored.authedUserId, access_token: stored.user!.value });
    const none = await askToken(key, teamId, "?kind=user&user_id=U0NOBODY1");
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: "unknown_user_token" });
    expect((await askToken(key, teamId, "?kind=user")).status).toBe(422);
    expect((await askToken(key, teamId, "?kind=admin")).status).toBe(422);
  });

  it("refreshes a token that would not last the margin, once for many backends asking at the same moment", async () => {
    const before = grants();
    const old = (await findInstallation(installationId, { fresh: true }))!.bot!.value;
    // 11 h 30 min on: the bot token has 30 minutes left, less than the hour promised.
    await advanceEmulatorClock(testConsole.origin, 11 * 3600 + 1800);
    await describeUpstream(getRotationRuntime(), true);
    const answers = await Promise.all(Array.from({ length: 20 }, () => askToken(key, teamId)));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as Array<{ access_token: string; expires_in: number; refreshed: boolean }>;
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(bodies.map((b) => b.access_token)).size).toBe(1);
    expect(bodies[0]!.access_token).not.toBe(old);
    for (const b of bodies) expect(b.expires_in).toBeGreaterThan(3600);
    expect(grants() - before).toBe(1);
    // Asked again once the caches hold the new record, the warm path answers the new token (its JSON is kept per token object: a refreshed one is new).
    expect((await askToken(key, teamId)).status).toBe(200);
    const again = serveToken(
      new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } }),
      teamId,
    );
    expect(again).toBeInstanceOf(Response);
    expect(await (again as Response).json()).toMatchObject({ access_token: bodies[0]!.access_token, refreshed: false });
    // The token handed out works on the platform.
    const test = await fetch(`${testConsole.origin}/emulator/api/auth.test`, {
      method: "POST",
      headers: { authorization: `Bearer ${bodies[0]!.access_token}` },
    });
    expect(await test.json()).toMatchObject({ ok: true });
  });

  it("refuses a browser: Origin, Cookie or Fetch Metadata, whatever the key", async () => {
    const browsers: Array<Record<string, string>> = [
      { origin: testConsole.origin },
      { cookie: "sb_signin=x" },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-dest": "empty", "sec-fetch-mode": "cors" },
    ];
    // The caches are warm (a backend's request is answered at once, without a promise): the browser is refused all the same.
    expect((await askToken(key, teamId)).status).toBe(200);
    const plain = () => new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } });
    expect(serveToken(plain(), teamId)).toBeInstanceOf(Response);
    for (const headers of browsers) {
      const response = await askToken(key, teamId, "", headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ error: "browser_not_allowed" });
    }
  });

  it("answers a backend using Node's own fetch, which sends Sec-Fetch-Mode alone", async () => {
    const response = await askToken(key, teamId, "", { "sec-fetch-mode": "cors", "user-agent": "node", accept: "*/*" });
    expect(response.status).toBe(200);
  });

  it("answers a backend that calls the console by an internal host name (Host: lb): the key authenticates it, not the name", async () => {
    // As in a compose network, where the backend reaches the console's service by its name.
    const request = new Request(`http://lb:3000/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}`, host: "lb:3000" } });
    const response = await tokenRoute(request, { params: Promise.resolve({ teamId }) });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, team_id: teamId });
    // Without a key, the name changes nothing: 401.
    const keyless = await tokenRoute(new Request(`http://lb:3000/api/v1/installations/${teamId}/token`, { headers: { host: "lb:3000" } }), {
      params: Promise.resolve({ teamId }),
    });
    expect(keyless.status).toBe(401);
  });

  it("refuses a missing, malformed or unknown key with 401, and a workspace outside the key's scope with 404", async () => {
    for (const k of [null, "not-a-key", `sbk_${"A".repeat(43)}`]) {
      const response = await askToken(k, teamId);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
      expect(await response.json()).toMatchObject({ error: "invalid_api_key" });
    }
    const scoped = await createKey({ name: "one workspace", teamIds: ["T0ELSEWHERE"] });
    expect(await (await askToken(scoped.key, teamId)).json()).toMatchObject({ error: "unknown_installation" });
    // Asked again, the key and the workspace are cached (another key's warm answer just now): still out of its scope.
    expect((await askToken(key, teamId)).status).toBe(200);
    expect((await askToken(scoped.key, teamId)).status).toBe(404);
    expect((await askToken(key, "T0NOSUCHTEAM")).status).toBe(404);
    expect((await askToken(key, "../../etc")).status).toBe(404);
  });

  it("refuses a revoked key with 403 from the moment it is revoked", async () => {
    const doomed = await createKey({ name: "to revoke" });
    expect((await askToken(doomed.key, teamId)).status).toBe(200);
    // Warm: answered from the caches at once; revoked, the same caches refuse it.
    const warm = serveToken(
      new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${doomed.key}` } }),
      teamId,
    );
    expect(warm).toBeInstanceOf(Response);
    const revoked = await operator.send(revokeKeyRoute, `/api/api-keys/${doomed.apiKey.id}`, { method: "DELETE", params: { id: doomed.apiKey.id } });
    expect(revoked.status).toBe(200);
    const response = await askToken(doomed.key, teamId);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: "api_key_revoked" });
  });

  it("answers 429 with Retry-After to a key asking far more than a backend needs", async () => {
    const greedy = await createKey({ name: "greedy" });
    // TOKEN_API_RATE_PER_S=50 here: 100 at once, then 50 a second. A burst of 160 on a busy machine can take
    // longer than the refill of its last 60, so the greedy backend keeps asking, in bursts, until refused.
    const first = await Promise.all(Array.from({ length: 160 }, () => askToken(greedy.key, teamId)));
    expect(first.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(100);
    let limited = first.filter((a) => a.status === 429);
    for (let burst = 0; burst < 5 && limited.length === 0; burst++) {
      const answers = await Promise.all(Array.from({ length: 300 }, () => askToken(greedy.key, teamId)));
      limited = answers.filter((a) => a.status === 429);
    }
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another key is not held back by this one's greed.
    expect((await askToken(key, teamId)).status).toBe(200);
  });
});
