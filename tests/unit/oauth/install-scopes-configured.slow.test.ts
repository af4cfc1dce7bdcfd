import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as installRoute } from "@/app/oauth/install/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";

/** BOT_SCOPES and USER_SCOPES, when set, override the app's configuration (issue 36, item 6). */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ BOT_SCOPES: "chat:write,users:read", USER_SCOPES: "users:read" });
});
afterAll(() => testConsole.close());

describe("Add to workspace with BOT_SCOPES and USER_SCOPES set", () => {
  it("asks for those, not the manifest's", async () => {
    const response = await new TestBrowser(testConsole.origin).send(installRoute, "/oauth/install");
    const url = new URL(response.headers.get("location") ?? "");
    expect(url.searchParams.get("scope")).toBe("chat:write,users:read");
    expect(url.searchParams.get("user_scope")).toBe("users:read");
  });
});
