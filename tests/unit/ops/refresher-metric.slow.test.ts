import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { runRefresherPass } from "@/lib/installations/rotation/refresher";
import { startTestConsole, type TestConsole } from "../support/console";

/**
 * Issue 36 item 11: the background refresher's last successful pass, as a timestamp an operator alerts on
 * (`time() - switchboard_refresher_last_success_timestamp_seconds > 600`): 0 before the first pass, the pass's
 * time once one finished, with the platform (the emulator, over HTTP) answering.
 */
const METRICS_TOKEN = randomBytes(32).toString("base64url");
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "true", METRICS_TOKEN });
});
afterAll(() => testConsole.close());

async function lastSuccess(): Promise<number> {
  const response = await metricsRoute(new Request(`${testConsole.origin}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }));
  const line = (await response.text()).split("\n").find((l) => l.startsWith("switchboard_refresher_last_success_timestamp_seconds "));
  return Number(line?.split(" ")[1]);
}

describe("the refresher's last successful pass", () => {
  it("is 0 before the first pass and the pass's time after it", async () => {
    expect(await lastSuccess()).toBe(0);
    const before = Date.now() / 1000;
    await runRefresherPass();
    const at = await lastSuccess();
    expect(at).toBeGreaterThanOrEqual(Math.floor(before));
    expect(at).toBeLessThanOrEqual(Date.now() / 1000 + 1);
  });
});
