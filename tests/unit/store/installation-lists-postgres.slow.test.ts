import { afterAll, beforeAll } from "vitest";
import { openBackend } from "@/lib/store/backend";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { listsContract } from "./support/lists-contract";

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("lists");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

listsContract("PostgreSQL", () => openBackend({ kind: "postgres", url }), { concurrent: true });
