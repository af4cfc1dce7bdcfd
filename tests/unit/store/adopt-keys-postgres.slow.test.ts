import { afterAll, beforeAll } from "vitest";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { adoptKeysSuite } from "./support/adopt-keys";

let server: TestPostgres;
let url: string;
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase("adopt_keys");
}, 120_000);
afterAll(() => server?.stop());

adoptKeysSuite("PostgreSQL", async () => ({ kind: "postgres", url }));
