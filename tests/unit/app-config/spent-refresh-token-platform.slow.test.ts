/**
 * Issue 23, item 1, with the console pointed at a standalone emulator as it would be at the platform
 * (PLATFORM_BASE_URL): a spent configuration refresh token hands out nothing.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { openTestStore } from "../support/store";
import { startAppConfigConsole, type AppConfigConsole } from "./support/console";
import { spentRefreshTokenSuite } from "./support/spent-refresh-token";

let console: AppConfigConsole;
beforeAll(async () => {
  console = await startAppConfigConsole("platform", { refreshGraceSeconds: 60 });
  await openTestStore();
});
afterAll(() => console.close());

describe("a spent configuration refresh token, against a standalone emulator as the platform", () => {
  spentRefreshTokenSuite(() => ({
    browser: () => console.browser(),
    admin: (path, body) => console.admin(path, body),
    appId: async () => (await console.appIds()).rotation,
  }));
});
