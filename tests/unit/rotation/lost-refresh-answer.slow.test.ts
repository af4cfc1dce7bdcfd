import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

// The platform is slower than the console waits on oauth.v2.access. The emulator is served over HTTP as a
// standalone server: like the platform, it spends a refresh token whether or not anyone reads the answer.
const HOUR_MS = 3600_000;
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ UPSTREAM_TIMEOUT_MS: "2000" }, { refreshGraceSeconds: 60 });
});
afterAll(() => testConsole.close());

async function faults(body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/faults`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/faults: ${response.status}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a refresh whose answer is lost", () => {
  it("is recovered in the background within the grace period: a call after the grace period works", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    const call = () => browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });

    await faults({ latency_ms: 3000, methods: ["oauth.v2.access"] });
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);
    const timedOut = await call();
    expect(timedOut.status).toBe(504);
    expect(await timedOut.json()).toMatchObject({ ok: false, error: "upstream_timeout" });
    // The platform got the refresh and spent the token; nobody read its answer.
    await sleep(1500);
    expect((await emulatorState(testConsole.origin)).installations[0]!.refresh_grants).toBe(1);

    // No request comes; meanwhile the console asks again with the same refresh token and gets the same pair.
    await sleep(4500);
    await faults({ latency_ms: 0, methods: [] });
    // The grace period is over: the old refresh token is dead for good.
    testConsole.emulator.emulator.clock.advance(61_000);
    const later = await call();
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
    // The recovery stored the pair it got: the call uses it as it stands, with nothing left to refresh.
    expect(later.headers.get("x-token-refreshed")).toBe("0");
    // One new pair upstream: the recovery's answer was the same pair again, not a second grant.
    expect((await emulatorState(testConsole.origin)).installations[0]!.refresh_grants).toBe(1);
  });
});
