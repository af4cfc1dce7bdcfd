import { afterAll, beforeAll } from "vitest";
import { openBackend } from "@/lib/store/backend";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { collectionsContract } from "./support/collections-contract";

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("collections");
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

collectionsContract("PostgreSQL", () => openBackend({ kind: "postgres", url }));
