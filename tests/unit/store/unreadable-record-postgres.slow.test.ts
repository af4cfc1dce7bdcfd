import { afterAll, beforeAll } from "vitest";
import { closeStore } from "@/lib/store";
import { startTestConsole, type TestConsole } from "../support/console";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { unreadableRecordSuite } from "./support/unreadable-record";

let postgres: TestPostgres;
let url: string;
let testConsole: TestConsole;
beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("unreadable");
  testConsole = await startTestConsole({ DATABASE_URL: url, BACKGROUND_REFRESH: "false" });
}, 120_000);
afterAll(async () => {
  await closeStore();
  await testConsole?.close();
  await postgres?.stop();
});

unreadableRecordSuite(
  "PostgreSQL",
  () => testConsole.origin,
  () => ({ kind: "postgres", url }),
);
