import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { findInstallation, removeInstallation, withTimeline } from "@/lib/installations/repository";
import { sealValue } from "@/lib/http/sealed-cookie";
import { forgetAllInstallations, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { previousReleaseCookie, type PreviousInstallationRecord } from "../support/previous-release-cookies";

// Issue 25, moving over: installations sealed in cookies by the previous release are imported into the store
// on the first request that carries them, then their cookies are cleared. The cookies are made by the
// previous release's own sealing and packing (tests/unit/support/previous-release-cookies.ts).
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
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

interface View {
  id: string;
  app: { key: string };
  bot: { masked: string } | null;
  user: { masked: string } | null;
  timeline: { type: string }[];
}

const password = () => process.env.SESSION_PASSWORD!;
const session = async (browser: TestBrowser) => ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: View[] }).installations;

/** A real installation (its tokens live upstream) as the previous release kept it in its cookie. */
async function installedAsPreviousRelease(): Promise<PreviousInstallationRecord> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const [view] = await session(browser);
  return previousShapeOf(view!.id);
}

/** The installation in the store now, in the previous release's shape: no issuedAt, no version, its timeline inside. */
async function previousShapeOf(id: string): Promise<PreviousInstallationRecord> {
  const record = await withTimeline((await findInstallation(id, { fresh: true }))!);
  const { version: _version, timelineMore: _more, ...rest } = record;
  const strip = (t: typeof record.bot) => (t ? (({ issuedAt: _issuedAt, ...token }) => token)(t) : undefined);
  return JSON.parse(JSON.stringify({ ...rest, bot: strip(record.bot), user: strip(record.user) })) as PreviousInstallationRecord;
}

async function browserWith(record: PreviousInstallationRecord, options: { packed?: boolean } = {}): Promise<{ browser: TestBrowser; name: string }> {
  const browser = new TestBrowser(testConsole.origin);
  const { name, value } = await previousReleaseCookie(record, password(), options);
  browser.cookies.set(name, value);
  return { browser, name };
}

describe("an installation cookie of the previous release", () => {
  for (const packed of [true, false]) {
    it(`is imported into the store on the first request that carries it (${packed ? "packed" : "plain JSON, sealed before packing"}), and its cookie is cleared`, async () => {
      const previous = await installedAsPreviousRelease();
      await removeInstallation(previous.id);
      expect(await findInstallation(previous.id)).toBeUndefined();

      const { browser, name } = await browserWith(previous, { packed });
      const response = await browser.send(sessionRoute, "/api/session");
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))).toMatch(/Max-Age=0/);
      expect(browser.cookies.has(name)).toBe(false);
      const [view] = ((await response.json()) as { installations: View[] }).installations;
      expect(view).toMatchObject({ id: previous.id, bot: { masked: expect.any(String) } });
      // Its timeline came with it, and every browser sees it now: nothing was lost on upgrade.
      expect(view!.timeline.map((e) => e.type)).toEqual(previous.timeline!.map((e) => e.type));
      const [elsewhere] = await session(new TestBrowser(testConsole.origin));
      expect(elsewhere?.id).toBe(previous.id);
      // Its tokens work from the store.
      const call = await browser.send(callRoute, `/api/call/auth.test?installation=${previous.id}&token=bot`, { params: { method: "auth.test" } });
      expect(((await call.json()) as { ok: boolean }).ok).toBe(true);
    });
  }

  it("of two browsers holding one installation: the older tokens never overwrite the newer, in either order", async () => {
    const older = await installedAsPreviousRelease();
    const browser = new TestBrowser(testConsole.origin);
    // The bot token is refreshed after the first browser's cookie was written: the second holds the newer pair.
    expect((await browser.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: older.id, token: "bot" } })).status).toBe(200);
    const newer = await previousShapeOf(older.id);
    expect(newer.bot!.value).not.toBe(older.bot!.value);

    for (const order of [
      [newer, older],
      [older, newer],
    ]) {
      await removeInstallation(older.id);
      for (const record of order) await session((await browserWith(record)).browser);
      const stored = (await findInstallation(older.id, { fresh: true }))!;
      expect(stored.bot!.value).toBe(newer.bot!.value);
      expect(stored.bot!.refreshToken).toBe(newer.bot!.refreshToken);
      expect(stored.user!.value).toBe(newer.user!.value);
    }
    // The newer pair is the live one: the call works (the older refresh token was spent by the refresh).
    const call = await browser.send(callRoute, `/api/call/auth.test?installation=${older.id}&token=bot`, { params: { method: "auth.test" } });
    expect(((await call.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("sealed when the legacy app was called emulator-legacy, is imported as the legacy app's", async () => {
    const previous: PreviousInstallationRecord = {
      id: "T9-A9",
      appKey: "emulator-legacy",
      appId: "A9",
      team: { id: "T9", name: "Older Workspace" },
      bot: { value: "xoxb-9-long-lived-token", scopes: ["users:read"] },
      state: "active",
      installedAt: 1,
      updatedAt: 1,
    };
    const { browser } = await browserWith(previous, { packed: false });
    const [view] = await session(browser);
    expect(view).toMatchObject({ id: "T9-A9", app: { key: "legacy" } });
  });

  it("that was tampered with, or unseals to another shape, is cleared and the session answers 200, never a 500", async () => {
    const previous = await installedAsPreviousRelease();
    await removeInstallation(previous.id);
    const { browser, name } = await browserWith(previous);
    const value = browser.cookies.get(name)!;
    browser.cookies.set(name, value.slice(0, 30) + (value[30] === "x" ? "y" : "x") + value.slice(31));
    const tampered = await browser.send(sessionRoute, "/api/session");
    expect(tampered.status).toBe(200);
    expect(((await tampered.json()) as { installations: unknown[] }).installations).toEqual([]);
    expect(browser.cookies.has(name)).toBe(false);

    browser.cookies.set(name, encodeURIComponent(await sealValue({ id: previous.id, pending: "not an array" }, { "1": password() }, 0)));
    const shaped = await browser.send(sessionRoute, "/api/session");
    expect(shaped.status).toBe(200);
    expect(((await shaped.json()) as { installations: unknown[] }).installations).toEqual([]);
    expect(browser.cookies.has(name)).toBe(false);
  });
});
