import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as streamRoute } from "@/app/api/events/stream/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { findInstallation } from "@/lib/installations/repository";
import { countRefusals } from "@/lib/ops/refusal-metrics";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { advanceEmulatorClock } from "../signin/support";

/**
 * Issue 28: GET /api/metrics, as Prometheus scrapes it (the bearer token, the text format), counting what an
 * operator watches: refreshes by outcome, the nearest expiry, the token API by status, /api/call's latency,
 * the open event streams. Against the emulator over HTTP, through the console's own routes.
 */
const METRICS_TOKEN = randomBytes(32).toString("base64url");
let testConsole: TestConsole;
let operator: TestBrowser;
let installationId: string;
let teamId: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", METRICS_TOKEN });
  // As instrumentation-node.ts does at start.
  countRefusals();
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  installationId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
  teamId = installationId.split("-")[0]!;
});
afterAll(() => testConsole.close());

function scrapeWith(authorization?: string): Promise<Response> {
  return metricsRoute(new Request(`${testConsole.origin}/api/metrics`, { headers: authorization ? { authorization } : {} }));
}

/** The samples of a scrape: `name{labels}` → value, as Prometheus reads the text format. */
async function scrape(): Promise<Map<string, number>> {
  const response = await scrapeWith(`Bearer ${METRICS_TOKEN}`);
  expect(response.status).toBe(200);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const sample = (samples: Map<string, number>, series: string) => samples.get(series) ?? 0;

describe("GET /api/metrics", () => {
  it("answers only the METRICS_TOKEN bearer, in Prometheus's text format, with the process's own metrics", async () => {
    const without = await scrapeWith();
    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(await without.json()).toMatchObject({ ok: false, error: "metrics_token_required" });
    expect((await scrapeWith(`Bearer ${METRICS_TOKEN.slice(0, -1)}x`)).status).toBe(401);
    expect((await scrapeWith(METRICS_TOKEN)).status).toBe(401);

    const response = await scrapeWith(`bearer ${METRICS_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    for (const name of [
      "switchboard_token_refreshes_total",
      "switchboard_token_nearest_expiry_seconds",
      "switchboard_token_api_requests_total",
      "switchboard_api_call_duration_seconds",
      "switchboard_event_streams_open",
      "switchboard_store_errors_total",
      "switchboard_redis_errors_total",
      "switchboard_process_resident_memory_bytes",
      "switchboard_nodejs_eventloop_lag_seconds",
    ]) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }
    // Nothing secret in it: no token of the installation, masked or not.
    expect(text).not.toMatch(/xox[a-z]-/);
  });

  it("says how far the nearest rotating token is from expiring, by the platform's clock", async () => {
    await describeUpstream(getRotationRuntime(), true);
    const fresh = sample(await scrape(), "switchboard_token_nearest_expiry_seconds");
    expect(fresh).toBeGreaterThan(12 * 3600 - 120);
    expect(fresh).toBeLessThanOrEqual(12 * 3600);
    await advanceEmulatorClock(testConsole.origin, 11 * 3600);
    await describeUpstream(getRotationRuntime(), true);
    const later = sample(await scrape(), "switchboard_token_nearest_expiry_seconds");
    expect(later).toBeGreaterThan(3600 - 120);
    expect(later).toBeLessThanOrEqual(3600);
  });

  it("counts refreshes by kind and outcome, and a refresh moves the nearest expiry out", async () => {
    const before = await scrape();
    const response = await operator.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: installationId, token: "bot" } });
    expect(response.status, await response.clone().text()).toBe(200);
    const after = await scrape();
    const granted = 'switchboard_token_refreshes_total{kind="bot",outcome="granted"}';
    expect(sample(after, granted) - sample(before, granted)).toBe(1);
    // The user token still expires within the hour; refreshed too, the nearest is 12 hours out again.
    await operator.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: installationId, token: "user" } });
    const both = await scrape();
    expect(sample(both, 'switchboard_token_refreshes_total{kind="user",outcome="granted"}')).toBeGreaterThanOrEqual(1);
    expect(sample(both, "switchboard_token_nearest_expiry_seconds")).toBeGreaterThan(12 * 3600 - 120);
  });

  it("counts the token API's answers by status, refusals included", async () => {
    const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "metrics test" } });
    const { key } = (await created.json()) as { key: string };
    const ask = (bearer: string) =>
      tokenRoute(new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${bearer}` } }), {
        params: Promise.resolve({ teamId }),
      });
    const before = await scrape();
    expect((await ask(key)).status).toBe(200);
    expect((await ask(key)).status).toBe(200);
    expect((await ask("sbk_not-a-key")).status).toBe(401);
    const after = await scrape();
    const delta = (status: number) =>
      sample(after, `switchboard_token_api_requests_total{status="${status}"}`) - sample(before, `switchboard_token_api_requests_total{status="${status}"}`);
    expect(delta(200)).toBe(2);
    expect(delta(401)).toBe(1);
  });

  it("times /api/call by status", async () => {
    const before = await scrape();
    const ok = await operator.send(callRoute, `/api/call/users.list?installation=${installationId}&limit=5`, { params: { method: "users.list" } });
    expect(ok.status).toBe(200);
    const bad = await operator.send(callRoute, `/api/call/users.list?installation=T000-A000`, { params: { method: "users.list" } });
    expect(bad.status).toBe(404);
    const after = await scrape();
    const count = (status: number) => `switchboard_api_call_duration_seconds_count{status="${status}"}`;
    expect(sample(after, count(200)) - sample(before, count(200))).toBe(1);
    expect(sample(after, count(404)) - sample(before, count(404))).toBe(1);
    // The call took more than nothing and less than the largest bucket.
    const sum = `switchboard_api_call_duration_seconds_sum{status="200"}`;
    expect(sample(after, sum) - sample(before, sum)).toBeGreaterThan(0);
    expect(sample(after, 'switchboard_api_call_duration_seconds_bucket{le="30",status="200"}')).toBe(sample(after, count(200)));
  });

  it("counts the event streams open now", async () => {
    expect(sample(await scrape(), "switchboard_event_streams_open")).toBe(0);
    const response = await operator.send(streamRoute, "/api/events/stream");
    expect(response.status).toBe(200);
    expect(sample(await scrape(), "switchboard_event_streams_open")).toBe(1);
    // The viewer goes away (its tab closed): the connection's body is cancelled.
    await response.body!.cancel();
    await expect.poll(async () => sample(await scrape(), "switchboard_event_streams_open")).toBe(0);
  });

  it("counts refusals by reason: a Host the console does not answer, a cross-site request, a missing credential", async () => {
    const before = await scrape();
    const rebound = await sessionRoute(new Request(`${testConsole.origin}/api/session`, { headers: { host: "evil.example", accept: "text/html" } }));
    expect(rebound.status).toBe(403);
    const crossSite = await operator.send(refreshRoute, "/api/tokens/refresh", {
      method: "POST",
      json: { installation: installationId, token: "bot" },
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect((await scrapeWith("Bearer wrong")).status).toBe(401);
    const after = await scrape();
    const delta = (reason: string) =>
      sample(after, `switchboard_refusals_total{reason="${reason}"}`) - sample(before, `switchboard_refusals_total{reason="${reason}"}`);
    expect(delta("host")).toBe(1);
    expect(delta("origin")).toBe(1);
    expect(delta("credentials")).toBe(1);
  });

  it("says the refresher is off (NaN) when BACKGROUND_REFRESH is", async () => {
    expect(Number.isNaN((await scrape()).get("switchboard_refresher_last_success_timestamp_seconds"))).toBe(true);
  });

  it("counts the installations that need a reinstall, once the platform has refused one's refresh token", async () => {
    expect(sample(await scrape(), "switchboard_installations_needing_reinstall")).toBe(0);
    // The app is uninstalled on the platform behind the console's back; the next refresh is refused for good.
    const app = defaultAppCredentials("session-tests", "rotation");
    const uninstall = await fetch(`${testConsole.origin}/emulator/api/apps.uninstall`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${(await findInstallation(installationId, { fresh: true }))!.bot!.value}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret }),
    });
    expect(((await uninstall.json()) as { ok: boolean }).ok).toBe(true);
    const refused = await operator.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: installationId, token: "bot" } });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect((await findInstallation(installationId, { fresh: true }))!.state).toBe("needs_reinstall");
    expect(sample(await scrape(), "switchboard_installations_needing_reinstall")).toBe(1);
  });
});
