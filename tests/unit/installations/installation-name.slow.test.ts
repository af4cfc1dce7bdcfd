import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { installationName } from "@/lib/installations/universal/view";
import { startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";

const team = { id: "T0123", name: "Emulated Workspace 2" };

describe("an installation's name", () => {
  it("is the app's name and the workspace's", () => {
    expect(installationName(team, { key: "console", id: "A0ROT", name: "Switchboard Rotation" })).toBe("Switchboard Rotation in Emulated Workspace 2");
    expect(installationName(team, { key: "legacy", id: "A0LEG", name: "Switchboard Legacy" })).toBe("Switchboard Legacy in Emulated Workspace 2");
  });

  it("tells two apps apart in one workspace, by their ids when the platform tells no name", () => {
    const one = installationName(team, { key: "console", id: "A0AAA", name: null });
    const other = installationName(team, { key: "console", id: "A0BBB", name: null });
    expect(one).toBe("A0AAA in Emulated Workspace 2");
    expect(one).not.toBe(other);
  });

  it("falls back to the workspace's id when it has no name", () => {
    expect(installationName({ id: "T0123", name: "" }, { key: "console", id: "A0AAA", name: "App" })).toBe("App in T0123");
  });

  it("still names the workspace, with the legacy app marked, for callers that know only the app's key", () => {
    expect(installationName(team, "console")).toBe("Emulated Workspace 2");
    expect(installationName(team, "legacy")).toBe("Emulated Workspace 2 · legacy app");
  });
});

describe("installations named by the emulator's app names", () => {
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

  it("names the console's app and the legacy app, installed into one workspace, apart", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    expect((await installIn(browser, "?app=legacy")).status).toBe(303);
    const { installations } = (await (await browser.send(sessionRoute, "/api/session")).json()) as {
      installations: { name: string; app: { name: string | null } }[];
    };
    expect(installations.map((i) => i.name)).toEqual(["Switchboard Rotation in Emulated Workspace", "Switchboard Legacy in Emulated Workspace"]);
    expect(installations.map((i) => i.app.name)).toEqual(["Switchboard Rotation", "Switchboard Legacy"]);
  });
});
