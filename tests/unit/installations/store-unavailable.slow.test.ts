import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { callbackPathFor, installIn } from "../support/install";
import { GET as callbackRoute } from "@/app/oauth/callback/route";

// Issue 25, bad input and faults: a store lost mid-run answers a clear 503 store_unavailable (saying what to
// fix) on the routes that need it, and nothing is half-written.
let testConsole: TestConsole;
let browser: TestBrowser;
let id: string;
beforeAll(async () => {
  testConsole = await startTestConsole();
  browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
});
afterAll(() => testConsole.close());

async function expectStoreUnavailable(response: Response) {
  expect(response.status).toBe(503);
  const body = (await response.json()) as { message: string };
  expect(body).toMatchObject({
    ok: false,
    error: "store_unavailable",
    message: expect.stringMatching(/store \(PGlite in memory\) is unavailable.*nothing was changed/s),
  });
  // What failed, never the query that met it (its SQL and parameters).
  expect(body.message).not.toMatch(/Failed query|select |insert |params:/i);
}

describe("the store lost mid-run", () => {
  it("answers 503 store_unavailable to the session, a call, a token action and an install's callback, changing nothing upstream", async () => {
    // An install whose callback comes once the store is gone: the platform has issued its code.
    const pendingCallback = await callbackPathFor(browser);
    await (await getStore()).close();

    await expectStoreUnavailable(await browser.send(sessionRoute, "/api/session"));
    await expectStoreUnavailable(await browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } }));
    await expectStoreUnavailable(await browser.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: id, token: "bot" } }));
    await expectStoreUnavailable(await browser.send(callbackRoute, pendingCallback));
  });
});
