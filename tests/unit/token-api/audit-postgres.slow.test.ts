import { afterAll, beforeAll, describe, expect } from "vitest";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { auditCannotBeErased } from "./support/audit-cases";

// The token API's audit on PostgreSQL, whose text columns refuse a NUL as PGlite's do.
let postgres: TestPostgres;
let testConsole: TestConsole;
let operator: TestBrowser;
let teamId: string;

beforeAll(async () => {
  postgres = await startPostgres();
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", DATABASE_URL: await postgres.createDatabase("token_api_audit") });
  delete process.env.DATA_DIR;
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  expect(done.status).toBe(303);
  teamId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!.split("-")[0]!;
}, 120_000);
afterAll(async () => {
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

describe("the token API's audit on PostgreSQL", () => {
  auditCannotBeErased(() => ({ origin: testConsole.origin, operator, teamId }));
});
