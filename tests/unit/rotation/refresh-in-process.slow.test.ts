import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findInstallation } from "@/lib/installations/repository";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { getRotationRuntime, type RotationRuntime } from "@/lib/installations/rotation/runtime";
import { inProcessTransport } from "@/lib/platform";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * With the embedded emulator, a refresh asks it through its own fetch (the runtime's transport), as every
 * other call does: the 200-session soak's profile found each refresh of the storm after a clock jump going
 * through Next.js a second time, over loopback HTTP back into the same process (docs/benchmarks.md).
 */
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
});
afterAll(() => testConsole.close());

describe("a refresh with the platform in this process", () => {
  it("goes through the runtime's transport, never the network", async () => {
    const done = await installIn(new TestBrowser(testConsole.origin));
    const id = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
    const before = (await findInstallation(id, { fresh: true }))!;
    const asked: string[] = [];
    const runtime: RotationRuntime = {
      ...getRotationRuntime(),
      // Nothing listens there: an answer can only come through the transport.
      baseUrl: "http://127.0.0.1:1/emulator",
      timeoutMs: 2_000,
      transport: inProcessTransport((request) => {
        asked.push(new URL(request.url).pathname);
        return testConsole.emulator.emulator.fetch(request);
      }),
    };
    const outcome = await refreshInstallationToken(before, "bot", runtime);
    expect(outcome.outcome).toBe("refreshed");
    expect(asked).toEqual(["/emulator/api/oauth.v2.access"]);
    const after = (await findInstallation(id, { fresh: true }))!;
    expect(after.bot!.value).not.toBe(before.bot!.value);
    expect([...testConsole.emulator.emulator.state.installations.values()][0]!.refreshGrants).toBe(1);
    // The store's first open (PGlite, its migrations) comes inside it: slow on a loaded machine.
  }, 120_000);
});
