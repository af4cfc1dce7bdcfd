import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { register } from "@/instrumentation";
import { EMBEDDED_EMULATOR_SINGLETON } from "@/lib/embedded-emulator";
import { stopRefresher } from "@/lib/installations/rotation/refresher";
import { stopStartUpReplay } from "@/lib/installations/rotation/start-up-replay";
import { processSingleton } from "@/lib/process-singleton";
import { closeStore, getStore } from "@/lib/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

// Issue 38: a server's start (instrumentation.ts's register(), as Next.js calls it) finds the refresh a dead
// process left unsettled in the store and settles it with the platform's answer, before it serves anything.
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" }, { refreshGraceSeconds: 60 });
});
afterAll(async () => {
  await Promise.all([stopStartUpReplay(), stopRefresher()]);
  await closeStore();
  await testConsole.close();
});

const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);

describe("start-up replay", () => {
  it("settles a dead process's unsettled refresh with the platform's new pair, recorded on the timeline", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    const store = await getStore();
    const before = (await store.installations.get(id, { fresh: true }))!.bot!;
    // As a refresher does before it asks the platform (refresh.ts), and then the process dies.
    await store.intents.record({ installationId: id, kind: "bot", refreshToken: before.refreshToken!, startedAt: Date.now() });
    expect(await store.intents.listUnsettled({ startedAfter: 0 })).toHaveLength(1);

    // The console's embedded emulator is the upstream it serves at /emulator: here, this test's emulator.
    processSingleton(EMBEDDED_EMULATOR_SINGLETON, () => testConsole.emulator.emulator);
    process.env.NEXT_RUNTIME = "nodejs";
    await register();

    expect(await store.intents.listUnsettled({ startedAfter: 0 })).toEqual([]);
    expect((await store.intents.findByRefreshToken(before.refreshToken!))?.outcome).toBe("refreshed");
    expect(await grants()).toBe(1);
    const after = (await store.installations.get(id, { fresh: true }))!.bot!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.value).not.toBe(before.value);
    const timeline = await store.installations.pageTimeline(id);
    expect(JSON.stringify(timeline.entries)).toContain("a refresh replayed after its process stopped");
  }, 60_000);
});
