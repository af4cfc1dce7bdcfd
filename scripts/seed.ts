// npm run seed -- --installations N [...] - Many installations in the emulated platform and the console's store, without OAuth
import { existsSync, readFileSync } from "node:fs";
import { parseArgs, parseEnv } from "node:util";
import { z } from "zod";

const USAGE = `Usage: npm run seed -- --installations N [options]

Makes N installations of the console's app, each in a workspace of its own named "<prefix> 00042", in the
emulated platform and in the console's store, as if each had been installed through the OAuth flow: the
console lists them, its token API and refresher serve them, and the emulator answers auth.test and
refreshes for their tokens. Run it with the console stopped when the console's store is PGlite (DATA_DIR):
one process at a time may open it. Settings come from the environment and .env files as those of next start.

  --installations N      how many (required)
  --database-url URL     the store is this PostgreSQL (default DATABASE_URL)
  --data-dir D           the store is PGlite in D, and the console's embedded emulator keeps its state in
                         D/emulator (default DATA_DIR, else .data)
  --emulator-url URL     seed a running emulator over HTTP instead: a standalone one (http://127.0.0.1:4000)
                         or a running console's ({origin}/emulator, with --database-url); its admin token
                         from EMULATOR_ADMIN_TOKEN when it has one
  --name-prefix P        workspace names (default Acme)
  --first N              the number of the first workspace (default 0): to add more after an earlier seed
  --rotating-share X     share of installations with rotating tokens, expiries staggered over 12 hours (default 0.5)
  --user-share X         share that also hold the installer's user token (default 0.2)
  --batch N              installations per emulator request and per store transaction (default 2000)
  --help                 this text
`;

const share = z.coerce.number().min(0).max(1);
const Settings = z.object({
  installations: z.coerce.number().int().min(1).max(10_000_000),
  databaseUrl: z.string().min(1).optional(),
  dataDir: z.string().min(1).optional(),
  emulatorUrl: z.url().optional(),
  namePrefix: z.string().min(1).max(40).default("Acme"),
  first: z.coerce.number().int().min(0).default(0),
  rotatingShare: share.default(0.5),
  userShare: share.default(0.2),
  batch: z.coerce.number().int().min(1).max(5_000).default(2_000),
});

/** .env.local, then .env, as `next start` reads them: the environment wins over both, the first file over the second. */
function loadEnvFiles(): void {
  for (const file of [".env.production.local", ".env.local", ".env.production", ".env"]) {
    if (!existsSync(file)) continue;
    for (const [name, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) process.env[name] ??= value;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      installations: { type: "string" },
      "database-url": { type: "string" },
      "data-dir": { type: "string" },
      "emulator-url": { type: "string" },
      "name-prefix": { type: "string" },
      first: { type: "string" },
      "rotating-share": { type: "string" },
      "user-share": { type: "string" },
      batch: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const parsed = Settings.safeParse({
    installations: values.installations,
    databaseUrl: values["database-url"],
    dataDir: values["data-dir"],
    emulatorUrl: values["emulator-url"],
    namePrefix: values["name-prefix"],
    first: values.first,
    rotatingShare: values["rotating-share"],
    userShare: values["user-share"],
    batch: values.batch,
  });
  if (!parsed.success) {
    console.error(`${parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("\n")}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const settings = parsed.data;
  // The console's own settings (.env files, then the environment), with the flags over them: the same store,
  // keys, emulator seed and client id as the console it seeds.
  loadEnvFiles();
  if (settings.databaseUrl) process.env.DATABASE_URL = settings.databaseUrl;
  if (settings.dataDir) process.env.DATA_DIR = settings.dataDir;
  // Imported once the environment is settled: the configuration is read on first use.
  const { seedFromConfig } = await import("../lib/ops/seed/from-config");
  await seedFromConfig({ ...settings, say: (line) => console.log(line) });
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
