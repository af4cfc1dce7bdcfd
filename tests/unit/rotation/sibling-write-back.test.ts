import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { InMemoryRefreshCoordinator, type RefreshCoordinator } from "@/lib/rotation/refresh-coordinator";
import { type InstallationRecord } from "@/lib/installations/record";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  // Every token is inside the refresh window (12 h, as long as a token lives), so each call refreshes the
  // kind it uses first; no grace period upstream, so a spent refresh token fails at once.
  testConsole = await startTestConsole({ REFRESH_WINDOW_S: "43200" }, { refreshGraceSeconds: 0 });
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

async function storedIn(browser: TestBrowser): Promise<InstallationRecord> {
  const [installation] = await runWithCookieJar(new RequestCookieJar(browser.request("/")), () => getSessionInstallations());
  if (!installation) throw new Error("no installation");
  return installation;
}

const call = (browser: TestBrowser, id: string, token: "bot" | "user") =>
  browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=${token}`, { params: { method: "auth.test" } });

/** The process's coordinator after its kept results are gone (their lifetime passed, or another instance). */
function forgetKeptRefreshes() {
  (globalThis as Record<symbol, RefreshCoordinator>)[Symbol.for("switchboard.refreshCoordinator")] = new InMemoryRefreshCoordinator();
}

describe("two concurrent calls that refresh different token kinds of one installation", () => {
  it("never write back the other kind's spent refresh token, whichever cookie lands last", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]?.id ?? "";
    const initial = await storedIn(browser);
    // Request A (a bot call) reads the cookie now, before request B's refresh of the user token lands.
    const requestA = browser.fork();

    const userCall = await call(browser, id, "user");
    expect(userCall.headers.get("x-token-refreshed")).toBe("1");
    const afterUser = await storedIn(browser);
    expect(afterUser.user?.refreshToken).not.toBe(initial.user?.refreshToken);

    const botCall = await call(requestA, id, "bot");
    expect(botCall.headers.get("x-token-refreshed")).toBe("1");
    // A's Set-Cookie reaches the browser last.
    browser.absorb(botCall);
    const afterBoth = await storedIn(browser);
    expect(afterBoth.bot?.refreshToken).not.toBe(initial.bot?.refreshToken);
    expect(afterBoth.user?.value).toBe(afterUser.user?.value);
    expect(afterBoth.user?.refreshToken).toBe(afterUser.user?.refreshToken);

    // Once the kept results are gone, the next user call refreshes with what the cookie holds: still works.
    forgetKeptRefreshes();
    const later = await call(browser, id, "user");
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });
});
