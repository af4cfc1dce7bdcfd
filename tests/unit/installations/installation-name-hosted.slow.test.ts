import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 36, item 4: a hosted console's emulator answers its admin surface to the admin token only (an Origin,
 * which anyone can send, is refused there). The installation is named by the app's name all the same, read
 * through the console's one client of that surface, with its credential.
 */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({}, { adminTokenOnly: true });
});
afterAll(() => testConsole.close());

describe("an installation on an emulator whose admin surface takes its token only", () => {
  it("is named by the app's name, not its id", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const refused = await fetch(`${testConsole.origin}/emulator/admin/apps`, { headers: { origin: testConsole.origin } });
    expect(refused.status).toBe(401);
    expect((await installIn(browser)).status).toBe(303);
    const { installations } = (await (await browser.send(sessionRoute, "/api/session")).json()) as {
      installations: { name: string; app: { id: string; name: string | null } }[];
    };
    expect(installations.map((i) => i.name)).toEqual(["Switchboard Rotation in Emulated Workspace"]);
    expect(installations[0]!.app.name).toBe("Switchboard Rotation");
  });
});
