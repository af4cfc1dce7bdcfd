import { defineConfig } from "drizzle-kit";

/** npm run db:generate: a new SQL migration in lib/store/migrations from a change to lib/store/schema.ts. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/store/schema.ts",
  out: "./lib/store/migrations",
});
