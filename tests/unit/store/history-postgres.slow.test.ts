import { afterAll, beforeAll } from "vitest";
import { openBackend } from "@/lib/store/backend";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { historyContract } from "./support/history-contract";

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("history");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

historyContract("PostgreSQL", () => ({ openBackend: () => openBackend({ kind: "postgres", url }) }));
