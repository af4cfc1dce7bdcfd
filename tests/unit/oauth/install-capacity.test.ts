import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { MAX_INSTALLATIONS } from "@/lib/installations/store";
import { type InstallationRecord } from "@/lib/installations/record";
import { saveInstallation } from "@/lib/installations/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

/** Installations of other workspaces, as a session that installed into several would hold them. */
function otherWorkspace(i: number): InstallationRecord {
  return {
    id: `TOTHER${i}-A0OTHER`,
    appKey: "console",
    appId: "A0OTHER",
    team: { id: `TOTHER${i}`, name: `Other ${i}` },
    bot: { value: `xoxe.xoxb-other-${i}`, refreshToken: `xoxe-1-other-${i}`, expiresAt: Date.now() + 3600_000, scopes: ["users:read"] },
    state: "active",
    installedAt: i,
    updatedAt: i,
  };
}

describe("an install into a session that has no room left", () => {
  it("is refused, and leaves no installation with active tokens upstream", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const jar = new RequestCookieJar(browser.request("/"));
    await runWithCookieJar(jar, async () => {
      for (let i = 0; i < MAX_INSTALLATIONS; i++) await saveInstallation(otherWorkspace(i));
    });
    browser.absorb(jar.applyTo(new Response(null)));

    const callback = await installIn(browser);
    expect(callback.status).toBe(400);
    const page = await callback.text();
    expect(page).toContain(`already holds ${MAX_INSTALLATIONS} installations`);
    expect(page).toContain("were revoked, so nothing is left behind");

    const upstream = await emulatorState(testConsole.origin);
    const issued = (upstream as unknown as { tokens: { installation_id: string; state: string; kind: string }[] }).tokens;
    expect(issued.length).toBeGreaterThan(0);
    expect(issued.filter((t) => t.state === "active")).toEqual([]);
    const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] };
    expect(session.installations.map((i) => i.id)).toEqual(Array.from({ length: MAX_INSTALLATIONS }, (_, i) => `TOTHER${i}-A0OTHER`));
  });

  it("still takes a reinstall of an installation it holds", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const jar = new RequestCookieJar(browser.request("/"));
    await runWithCookieJar(jar, async () => {
      for (let i = 0; i < MAX_INSTALLATIONS - 1; i++) await saveInstallation(otherWorkspace(i));
    });
    browser.absorb(jar.applyTo(new Response(null)));
    expect((await installIn(browser)).status).toBe(303);
  });
});
