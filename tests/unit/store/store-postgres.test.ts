import { afterAll, beforeAll } from "vitest";
import { openBackend } from "@/lib/store/backend";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { storeContract } from "./support/contract";

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("contract");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

storeContract("PostgreSQL", () => ({ openBackend: () => openBackend({ kind: "postgres", url }) }));
