import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { replayAtStart } from "@/lib/installations/rotation/replay";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { getStore } from "@/lib/store";
import { emulatorState, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

// Issue 25: kill -9 of a console process mid-refresh (the platform's answer delayed, its refresh token already
// spent), a restart within the grace period on the same DATA_DIR (the dead process's lock file taken over),
// then a call: 200, and exactly one grant upstream (the restart replayed the intent with the same refresh token).
const CHILD = path.join(import.meta.dirname, "support", "refresh-and-die.ts");
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-kill-"));
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ DATA_DIR: dataDir, UPSTREAM_TIMEOUT_MS: "20000" }, { refreshGraceSeconds: 60 });
});
afterAll(async () => {
  await (await getStore()).close();
  await testConsole.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function admin(pathname: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${pathname}: ${response.status}`);
}

const liveGrants = () => [...testConsole.emulator.emulator.state.installations.values()].reduce((sum, i) => sum + i.refreshGrants, 0);
const grants = async () => (await emulatorState(testConsole.origin)).installations.reduce((sum, i) => sum + i.refresh_grants, 0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process stops using the store as a stopped console would, and starts again as a restarted one. */
async function stopThisConsole() {
  await (await getStore()).close();
  const symbols = globalThis as Record<symbol, unknown>;
  delete symbols[Symbol.for("switchboard.store")];
}

describe("a console process killed mid-refresh", () => {
  it("is finished by the restarted console within the grace period: the call answers 200, with one grant", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    const before = (await (await getStore()).installations.get(id, { fresh: true }))!.bot!;
    await stopThisConsole();

    // Another console process on the same DATA_DIR refreshes; the platform spends the token and answers late.
    await admin("faults", { latency_ms: 5_000, methods: ["oauth.v2.access"] });
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", CHILD, id], {
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    // The emulator runs in this process: the grant is seen on the tick after the platform makes it, and the
    // child is killed before its answer (sent that moment) can be read and settled. Asking the admin surface over
    // HTTP every 100 ms left the child time to finish on a busy machine.
    for (let waited = 0; liveGrants() === 0; waited += 2) {
      if (waited > 30_000) throw new Error(`the child never refreshed: ${out}`);
      await sleep(2);
    }
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(Number(readFileSync(path.join(dataDir, "switchboard.lock"), "utf8").trim().split(/\s/)[0])).toBe(child.pid);
    expect(out).not.toContain("refreshed");
    expect(await grants()).toBe(1);
    await admin("faults", { latency_ms: 0, methods: [] });

    // The restart: this process opens the DATA_DIR again (the dead pid's lock taken over), replays the dead
    // process's refresh as a console's start-up does (instrumentation-node.ts), and serves a call.
    await replayAtStart(await getStore(), getRotationRuntime());
    const call = await browser.send(callRoute, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });
    expect(call.status).toBe(200);
    expect(((await call.json()) as { ok: boolean }).ok).toBe(true);
    expect(await grants()).toBe(1);
    const after = (await (await getStore()).installations.get(id, { fresh: true }))!.bot!;
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(await (await getStore()).intents.listUnsettled({ startedAfter: 0 })).toEqual([]);
  }, 90_000);
});
