import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { findInstallation, saveInstallation } from "@/lib/installations/repository";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  // Every token is inside the refresh window (12 h, as long as a token lives), so each call refreshes the
  // kind it uses first; no grace period upstream, so a spent refresh token fails at once.
  testConsole = await startTestConsole({ REFRESH_WINDOW_S: "43200" }, { refreshGraceSeconds: 0 });
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await forgetAllInstallations();
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

const call = (browser: TestBrowser, id: string, token: "bot" | "user") =>
  browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=${token}`, { params: { method: "auth.test" } });

describe("a write of a record read before another request refreshed the other token kind", () => {
  it("never puts back the other kind's spent refresh token: the store keeps the later-issued token of each kind", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]?.id ?? "";
    // Request A read the installation now, before request B's refresh of the user token lands.
    const readByA = (await findInstallation(id, { fresh: true }))!;

    const userCall = await call(browser, id, "user");
    expect(userCall.headers.get("x-token-refreshed")).toBe("1");
    const afterUser = (await findInstallation(id, { fresh: true }))!;
    expect(afterUser.user?.refreshToken).not.toBe(readByA.user?.refreshToken);

    // A then writes what it read, with its own change (a timeline entry, its bot token marked revoked).
    const entry: TimelineEntry = { at: Date.now(), type: "tested", token: "bot", masked: "xoxe.xoxb-…abcd", ok: true, by: "request A" };
    await saveInstallation({ ...readByA, bot: { ...readByA.bot!, revoked: true }, timeline: [entry] });
    const afterBoth = (await findInstallation(id, { fresh: true }))!;
    expect(afterBoth.user?.value).toBe(afterUser.user?.value);
    expect(afterBoth.user?.refreshToken).toBe(afterUser.user?.refreshToken);
    expect(afterBoth.bot?.revoked).toBe(true);

    // The user token the store kept still works (its refresh token unspent).
    const later = await call(browser, id, "user");
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });
});
