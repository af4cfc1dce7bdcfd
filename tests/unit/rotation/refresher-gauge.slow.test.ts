import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { startRefresher, stopRefresher } from "@/lib/installations/rotation/refresher";
import { startTestConsole, type TestConsole } from "../support/console";

/**
 * switchboard_refresher_allowed says how many refreshes this instance's background refresher may have under
 * way, "0 while it is off": a refresher stopped (a graceful shutdown, BACKGROUND_REFRESH turned off) must not
 * go on showing the room it had, as Prometheus scrapes it.
 */
const METRICS_TOKEN = randomBytes(32).toString("base64url");
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "true", REFRESHER_CONCURRENCY: "3", METRICS_TOKEN });
}, 120_000);
afterAll(async () => {
  await stopRefresher();
  await testConsole.close();
});

async function allowed(): Promise<number | undefined> {
  const response = await metricsRoute(new Request(`${testConsole.origin}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }));
  expect(response.status).toBe(200);
  const line = (await response.text()).split("\n").find((l) => l.startsWith("switchboard_refresher_allowed "));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe("the background refresher's allowed gauge", () => {
  it("says the room the refresher has while it runs (its concurrency, less while the event loop lags), and 0 once it stopped", async () => {
    startRefresher({ sendAlert: async () => {} });
    expect(await allowed()).toBeGreaterThan(0);
    await stopRefresher();
    expect(await allowed()).toBe(0);
  }, 180_000);
});
