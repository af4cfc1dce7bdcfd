import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { findInstallation } from "@/lib/installations/repository";
import { refreshLockKey } from "@/lib/installations/rotation/lock";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

// Issue 23, item 6: a call that joins a refresh another request holds, and waits as long as a request may,
// answers 503 refresh_in_progress with Retry-After: the platform was not slow, another holder was.
const HOUR_MS = 3600_000;
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ UPSTREAM_TIMEOUT_MS: "500" }, { refreshGraceSeconds: 60 });
});
afterAll(async () => {
  await testConsole?.close();
});
beforeEach(async () => {
  await admin("reset", {});
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status} ${await response.text()}`);
}

async function installed(): Promise<{ browser: TestBrowser; id: string }> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
  return { browser, id };
}

const call = (browser: TestBrowser, id: string) =>
  browser.fork().send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });

async function expectRefreshInProgress(response: Response) {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await response.json()).toMatchObject({
    ok: false,
    error: "refresh_in_progress",
    message: expect.stringContaining("Another request is refreshing this token"),
  });
}

describe("a call that needs a refresh another request holds", () => {
  it("answers 503 refresh_in_progress with Retry-After while another holder keeps the refresh lock, and spends nothing", async () => {
    const { browser, id } = await installed();
    const before = (await findInstallation(id))!.bot!;
    // Another holder took this token's refresh lock and does not let go (a refresh stuck elsewhere).
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const holding = (await getStore()).withRefreshLock(refreshLockKey(id, "bot"), () => held);
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);

    const started = Date.now();
    await expectRefreshInProgress(await call(browser, id));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await findInstallation(id, { fresh: true }))!.bot).toEqual(before);
    // Nothing was spent meanwhile: the installation still works once the holder is gone.
    letGo();
    await holding;
    const later = await call(browser, id);
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("answers 503 refresh_in_progress to a request that joined a refresh of this process still waiting for the platform", async () => {
    const { browser, id } = await installed();
    await admin("faults", { latency_ms: 3_000, methods: ["oauth.v2.access"] });
    testConsole.emulator.emulator.clock.advance(13 * HOUR_MS);

    // The request that started the refresh saw the platform not answer within UPSTREAM_TIMEOUT_MS: 504.
    const starter = call(browser, id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const joiner = call(browser, id);
    const first = await starter;
    expect(first.status).toBe(504);
    expect(await first.json()).toMatchObject({ error: "upstream_timeout" });
    await expectRefreshInProgress(await joiner);

    // The refresh goes on in the background; once it lands, the next call gets its pair.
    await admin("faults", { latency_ms: 0, methods: [] });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const later = await call(browser, id);
    expect(later.status).toBe(200);
    expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
  });
});
