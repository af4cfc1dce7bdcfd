// npm run emulator -- --port N [--users N] [--seed S] [...] - The platform emulator as a standalone HTTP server
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { isLoopbackHost, startEmulatorServer } from "../lib/emulator";

const USAGE = `Usage: npm run emulator -- [options]

  --port N               port to listen on (EMULATOR_PORT, default 4000)
  --host H               interface to listen on (EMULATOR_HOST, default 127.0.0.1)
  --base-path P          path prefix, e.g. /emulator (EMULATOR_BASE_PATH, default none)
  --users N              members in each workspace (EMULATOR_USERS, default 3000)
  --workspaces N         how many workspaces the platform has (EMULATOR_WORKSPACES, default 1)
  --seed S               seed of the workspace and the default apps' credentials (EMULATOR_SEED, default switchboard)
  --refresh-grace S      seconds a used refresh token is still accepted (EMULATOR_REFRESH_GRACE_S, default 60)
  --cursor-ttl S         seconds a pagination cursor stays valid (EMULATOR_CURSOR_TTL_S, default 900)
  --rate-limits          turn rate limits on (EMULATOR_RATE_LIMITS=1)
  --redirect-url URL     an extra redirect URL for the default apps, repeatable (EMULATOR_REDIRECT_URLS, comma-separated)
  --events-url URL       where the default apps receive events (EMULATOR_EVENTS_URL)
  --allowed-host H       another Host name browsers reach it at, repeatable (EMULATOR_ALLOWED_HOSTS, comma-separated)
  --data-dir D           keep the state in directory D across restarts (EMULATOR_DATA_DIR; default none: in memory)

  EMULATOR_ADMIN_TOKEN   the admin surface's credential (Authorization: Bearer); required with a --host
                         that is not a loopback address, which then answers nothing else on /admin
  --help                 this text
`;

const emptyAsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const int = (min: number, max: number) => z.preprocess(emptyAsUnset, z.coerce.number().int().min(min).max(max).optional());

const Settings = z.object({
  port: int(0, 65535),
  host: z.preprocess(emptyAsUnset, z.string().optional()),
  basePath: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .regex(/^\/[^?#]*$/, "must start with /")
      .optional(),
  ),
  users: int(1, 1_000_000),
  workspaces: int(1, 1_000),
  seed: z.preprocess(emptyAsUnset, z.string().optional()),
  refreshGraceSeconds: int(0, 86_400),
  cursorTtlSeconds: int(1, 86_400 * 30),
  rateLimits: z.preprocess(emptyAsUnset, z.enum(["1", "0", "true", "false", "on", "off", "yes", "no"]).optional()),
  redirectUrls: z.array(z.string().url("must be an absolute URL")),
  eventsRequestUrl: z.preprocess(emptyAsUnset, z.string().url("must be an absolute URL").optional()),
  allowedHosts: z.array(z.string().regex(/^[^\s/]+$/, "must be a host name, with or without a port")),
  adminToken: z.preprocess(emptyAsUnset, z.string().min(32, "EMULATOR_ADMIN_TOKEN must be at least 32 characters").optional()),
  dataDir: z.preprocess(emptyAsUnset, z.string().optional()),
});

function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "base-path": { type: "string" },
      users: { type: "string" },
      workspaces: { type: "string" },
      seed: { type: "string" },
      "refresh-grace": { type: "string" },
      "cursor-ttl": { type: "string" },
      "rate-limits": { type: "boolean" },
      "redirect-url": { type: "string", multiple: true },
      "events-url": { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "data-dir": { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return Promise.resolve();
  }
  const env = process.env;
  const parsed = Settings.safeParse({
    port: values.port ?? env.EMULATOR_PORT ?? "4000",
    host: values.host ?? env.EMULATOR_HOST,
    basePath: values["base-path"] ?? env.EMULATOR_BASE_PATH,
    users: values.users ?? env.EMULATOR_USERS,
    workspaces: values.workspaces ?? env.EMULATOR_WORKSPACES,
    seed: values.seed ?? env.EMULATOR_SEED,
    refreshGraceSeconds: values["refresh-grace"] ?? env.EMULATOR_REFRESH_GRACE_S,
    cursorTtlSeconds: values["cursor-ttl"] ?? env.EMULATOR_CURSOR_TTL_S,
    rateLimits: values["rate-limits"] ? "1" : env.EMULATOR_RATE_LIMITS,
    redirectUrls:
      values["redirect-url"] ??
      (env.EMULATOR_REDIRECT_URLS ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    eventsRequestUrl: values["events-url"] ?? env.EMULATOR_EVENTS_URL,
    allowedHosts:
      values["allowed-host"] ??
      (env.EMULATOR_ALLOWED_HOSTS ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    adminToken: env.EMULATOR_ADMIN_TOKEN,
    dataDir: values["data-dir"] ?? env.EMULATOR_DATA_DIR,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`).join("\n");
    process.stderr.write(`The emulator's settings are not valid:\n${problems}\n\n${USAGE}`);
    process.exitCode = 2;
    return Promise.resolve();
  }
  const s = parsed.data;
  const host = s.host ?? "127.0.0.1";
  // The console's exposure rule: beyond loopback, the admin surface answers its token only.
  const exposed = !isLoopbackHost(host);
  if (exposed && !s.adminToken) {
    process.stderr.write(
      `--host ${host} is not a loopback address: set EMULATOR_ADMIN_TOKEN (at least 32 characters), which the admin surface will then require.\n`,
    );
    process.exitCode = 2;
    return Promise.resolve();
  }
  return startEmulatorServer({
    port: s.port,
    host: s.host,
    basePath: s.basePath,
    users: s.users,
    workspaces: s.workspaces,
    seed: s.seed,
    refreshGraceSeconds: s.refreshGraceSeconds,
    cursorTtlSeconds: s.cursorTtlSeconds,
    rateLimits: s.rateLimits === undefined ? undefined : ["1", "true", "on", "yes"].includes(s.rateLimits),
    redirectUrls: s.redirectUrls,
    eventsRequestUrl: s.eventsRequestUrl,
    admin: { token: s.adminToken, requireToken: exposed, allowedHosts: ["localhost", "127.0.0.1", "[::1]", host, ...s.allowedHosts] },
    dataDir: s.dataDir === undefined ? undefined : path.resolve(s.dataDir),
  }).then((server) => {
    const { options } = server.emulator;
    process.stdout.write(
      `Platform emulator listening on ${server.url}\n` +
        `  Web API:   ${server.url}/api/<method>\n` +
        `  Authorize: ${server.url}/oauth/v2/authorize\n` +
        `  Admin:     ${server.url}/admin/apps, /admin/state (${
          exposed
            ? "Authorization: Bearer $EMULATOR_ADMIN_TOKEN only"
            : `a POST needs Origin: ${new URL(server.url).origin} or the admin token, and a JSON body`
        })\n` +
        `  Workspaces: ${options.workspaces} of ${options.users} members, seed "${options.seed}"; rate limits ${options.rateLimits ? "on" : "off"}\n` +
        `  State:     ${server.emulator.dataDir ? `kept in ${server.emulator.dataDir} (its journal is written as it changes)` : "in memory (--data-dir D keeps it across restarts)"}\n`,
    );
    // Stopping writes what the journal has not yet written, then gives the data directory back.
    const stop = () => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`The emulator could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
