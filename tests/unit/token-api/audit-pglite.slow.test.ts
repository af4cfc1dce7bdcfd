import { afterAll, beforeAll, describe, expect } from "vitest";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { auditCannotBeErased } from "./support/audit-cases";

// The token API's audit on the default store: PGlite (here in memory).
let testConsole: TestConsole;
let operator: TestBrowser;
let teamId: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  teamId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!.split("-")[0]!;
});
afterAll(() => testConsole.close());

describe("the token API's audit on PGlite", () => {
  auditCannotBeErased(() => ({ origin: testConsole.origin, operator, teamId }));
});
