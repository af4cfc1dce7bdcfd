import { createEnv } from "@t3-oss/env-nextjs";
import { z } from "zod";

/**
 * The environment Switchboard reads, and its format: every variable declared once, as create-t3-app does.
 * `next build` and `next dev` check it (next.config.ts), so a malformed value fails them naming the variable;
 * the console reads it again at start (lib/config.ts), where what only the whole configuration can say is
 * checked too: the secrets a container's build has none of, and the settings that must agree. No `server-only`
 * here: next.config.ts loads this module on plain Node.
 */

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Switchboard's configuration is not valid:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const MIN_SECRET_LENGTH = 32;

export const HOW_TO_MAKE_A_PASSWORD =
  `set SESSION_PASSWORD to a random string of at least ${MIN_SECRET_LENGTH} characters, ` +
  `for example the output of: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

export const HOW_TO_MAKE_AN_ADMIN_TOKEN =
  "npm start generates one into .env.local; or set EMULATOR_ADMIN_TOKEN yourself (the same on every instance), for example to the output of: " +
  `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

const HOW_TO_MAKE_A_KEY =
  `make one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))" ` +
  `(32 bytes in base64, used as it is; any other entry of at least ${MIN_SECRET_LENGTH} characters is a passphrase the key derives from)`;

/** The URL's scheme, or undefined when it is not a URL (zod runs refinements even after .url() failed). */
function schemeOf(value: string): string | undefined {
  try {
    return new URL(value).protocol;
  } catch {
    return undefined;
  }
}

const optionalString = z.string().trim().optional();
const url = (example: string, scheme: RegExp, schemeProblem: string) =>
  z
    .string()
    .trim()
    .url(`must be ${example}`)
    .refine((u) => scheme.test(schemeOf(u) ?? ""), schemeProblem)
    .optional();
const httpUrl = url("an absolute URL such as https://slack.com", /^https?:$/, "must use http or https");
const intWithDefault = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);
const boolWithDefault = (fallback: boolean) =>
  z
    .enum(["1", "0", "true", "false", "on", "off", "yes", "no"])
    .transform((v) => ["1", "true", "on", "yes"].includes(v))
    .default(fallback);
const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((s) =>
      s
        .split(/[\s,]+/)
        .map((x) => x.trim())
        .filter(Boolean),
    );
/**
 * A secret of at least 32 characters. A message that names its variable is shown as it reads (issueLine),
 * so these say `METRICS_TOKEN is shorter than 32 characters`, as the start's own checks always have.
 */
const secret = (name: string, howTo: string) =>
  z
    .string()
    .trim()
    .refine((s) => s.length >= MIN_SECRET_LENGTH, `${name} is shorter than ${MIN_SECRET_LENGTH} characters: ${howTo}`)
    .optional();
/** Several secrets, newest first, separated by spaces or commas, each of at least 32 characters. */
const secretList = (name: string, howTo: string) =>
  z
    .string()
    .transform((s, ctx) => {
      const entries = s.split(/[\s,]+/).filter(Boolean);
      entries.forEach((entry, i) => {
        if (entry.length < MIN_SECRET_LENGTH)
          ctx.addIssue({ code: "custom", message: `${name} entry ${i + 1} is shorter than ${MIN_SECRET_LENGTH} characters: ${howTo}` });
      });
      return entries;
    })
    .optional();

/** A number of proxies, or yes/no for one/none. */
const proxyHops = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    const word = value.trim().toLowerCase();
    if (["true", "yes", "on"].includes(word)) return "1";
    if (["false", "no", "off"].includes(word)) return "0";
    return word;
  },
  z.coerce.number({ error: "must be the number of proxies in front of the console that set X-Forwarded-For (0 for none)" }).int().min(0).max(10).default(0),
);

/** Every variable the console reads; none is a browser's (NEXT_PUBLIC_…), so there is no `client` part. */
const SERVER_VARIABLES = {
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: intWithDefault(3000, 1, 65535),
  /** The interface the console listens on (scripts/start.sh passes it to `next start -H`). */
  HOST: z.string().trim().default("127.0.0.1"),
  /** Host names browsers may reach the console at besides APP_ORIGIN's (a DNS rebinding page names its own). */
  ALLOWED_HOSTS: list(""),
  /** How many proxies in front of the console append the client's address to X-Forwarded-For. */
  TRUSTED_PROXY: proxyHops,
  /** The embedded emulator's admin credential (Authorization: Bearer); required when HOST is exposed. */
  EMULATOR_ADMIN_TOKEN: secret("EMULATOR_ADMIN_TOKEN", HOW_TO_MAKE_AN_ADMIN_TOKEN),
  /** The console's public origin, as browsers reach it (used for the Origin check and the redirect URI). */
  APP_ORIGIN: httpUrl,
  PLATFORM_BASE_URL: httpUrl,
  CLIENT_ID: optionalString,
  CLIENT_SECRET: optionalString,
  SIGNING_SECRET: optionalString,
  REDIRECT_URI: httpUrl,
  /** Unset (empty): "Add to workspace" asks for the scopes in the app's configuration (lib/oauth/install-scopes.ts). */
  BOT_SCOPES: list(""),
  USER_SCOPES: list(""),
  /** iron-session's passwords, newest first; required at start in production (lib/config.ts), never at build. */
  SESSION_PASSWORD: secretList("SESSION_PASSWORD", HOW_TO_MAKE_A_PASSWORD),
  /** Refresh a token proactively when it expires within this many seconds. */
  REFRESH_WINDOW_S: intWithDefault(600, 0, 43_200),
  /**
   * The platform's grace period for a used refresh token, which its spec does not give: unset, the embedded
   * emulator's EMULATOR_REFRESH_GRACE_S with the emulator, else 60 (the emulator's default).
   */
  REFRESH_GRACE_S: z.coerce.number().int().min(0).max(86_400).optional(),
  UPSTREAM_TIMEOUT_MS: intWithDefault(10_000, 100, 120_000),
  /** The background refresher (lib/installations/rotation/refresher.ts): keeps every rotating token alive with nobody watching. */
  BACKGROUND_REFRESH: boolWithDefault(true),
  /** It refreshes a rotating token this many seconds before it expires (one refresh per 12-hour lifetime). */
  REFRESH_HORIZON_S: intWithDefault(7_200, 300, 36_000),
  /** Tokens issued together are refreshed spread over this many seconds before their horizon (no thundering herd). */
  REFRESH_SPREAD_S: intWithDefault(600, 0, 3_600),
  /** How often it looks for tokens due. */
  REFRESHER_INTERVAL_S: intWithDefault(30, 1, 3_600),
  /** Refreshes one instance's refresher makes at once, at most (its bound on the platform's oauth.v2.access). */
  REFRESHER_CONCURRENCY: intWithDefault(4, 1, 64),
  /** An incoming-webhook URL (WEBHOOK_HOSTS, or the embedded emulator's) told when a token needs a person: reinstall. */
  REFRESH_ALERT_WEBHOOK_URL: httpUrl,
  /** Or: an installation id whose bot posts the alert to REFRESH_ALERT_CHANNEL (a channel id) with chat.postMessage. */
  REFRESH_ALERT_INSTALLATION: optionalString,
  REFRESH_ALERT_CHANNEL: optionalString,
  /** The token API answers a token valid for at least this many seconds (at most 12 h less REFRESH_HORIZON_S). */
  TOKEN_API_MARGIN_S: intWithDefault(3_600, 0, 43_200),
  /** Requests a second one API key may make to the token API (twice as many at once); more answer 429. */
  TOKEN_API_RATE_PER_S: intWithDefault(200, 1, 100_000),
  /** Comma-separated hosts an incoming-webhook URL may point at (the real platform's webhook host). */
  WEBHOOK_HOSTS: list("hooks.slack.com"),
  /** Set when several instances serve the console: they coordinate token refreshes through this Redis. */
  REDIS_URL: url(
    "a Redis URL such as redis://localhost:6379 (rediss:// for TLS)",
    /^rediss?:$/,
    "must use redis:// or rediss://, for example redis://localhost:6379",
  ),
  /** The embedded store's folder (PGlite), or memory:// for one that lives as long as the process. */
  DATA_DIR: optionalString,
  /** A PostgreSQL database instead of the embedded store: what several instances share. */
  DATABASE_URL: url(
    "a PostgreSQL URL such as postgres://user:password@localhost:5432/switchboard",
    /^postgres(ql)?:$/,
    "must use postgres:// or postgresql://, for example postgres://user:password@localhost:5432/switchboard",
  ),
  /** Keys that seal the store's secrets, newest first, each a 32-byte base64 key or a long passphrase; unset: derived from SESSION_PASSWORD. */
  ENCRYPTION_KEYS: secretList("ENCRYPTION_KEYS", HOW_TO_MAKE_A_KEY),
  /**
   * How people get in: `oidc` signs them in with the platform ("Sign in with", OpenID Connect); `none` makes
   * whoever reaches the console its operator. Unset: `none` on loopback, and a refusal to start when exposed.
   */
  AUTH_MODE: z.enum(["none", "oidc"], { error: "must be oidc (people sign in with the platform) or none" }).optional(),
  /** Comma-separated user ids who see and do everything once signed in. */
  ADMIN_USERS: list(""),
  /** Where the platform sends a sign-in back to (registered with the app, beside REDIRECT_URI). */
  SIGN_IN_REDIRECT_URI: httpUrl,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** The bearer token GET /api/metrics asks for (Prometheus's `authorization` setting); unset, the route is off. */
  METRICS_TOKEN: secret(
    "METRICS_TOKEN",
    `anyone who guesses it reads the instance's metrics. ${HOW_TO_MAKE_A_PASSWORD.replace(/^set SESSION_PASSWORD to/, "Set it to")}`,
  ),
  /** On SIGTERM, how long readiness answers 503 before the listener closes (time for a load balancer's health checks to notice). */
  SHUTDOWN_DELAY_S: intWithDefault(0, 0, 120),
  /** On SIGTERM, the most the instance takes to finish its work and exit (in-flight requests and refreshes, the audit). */
  SHUTDOWN_TIMEOUT_S: intWithDefault(20, 1, 600),
  EMULATOR_USERS: intWithDefault(3000, 1, 1_000_000),
  EMULATOR_WORKSPACES: intWithDefault(1, 1, 1_000),
  /** The embedded emulator's seed (its workspace, its default apps' credentials); unset, the public default. */
  EMULATOR_SEED: z.string().optional(),
  EMULATOR_REFRESH_GRACE_S: intWithDefault(60, 0, 86_400),
  EMULATOR_CURSOR_TTL_S: intWithDefault(900, 1, 86_400 * 30),
  EMULATOR_RATE_LIMITS: boolWithDefault(false),
};

/** One line of a ConfigError: `NAME: what is wrong`, or the message as it reads when it names its variable. */
function issueLine(issue: { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string {
  const name = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".");
  return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
}

/**
 * The environment, parsed: defaults filled in, numbers and lists made, every malformed value refused with
 * one ConfigError that names each. `source` is process.env but in tests; it is read, never changed.
 */
export function readEnv(source: Readonly<Record<string, string | undefined>>, { skipValidation = false } = {}) {
  // A value of spaces (`NAME= ` in a .env file) is as unset as an empty one.
  const runtimeEnv: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(source).map(([name, value]) => [name, value?.trim() === "" ? "" : value]),
  );
  return createEnv({
    server: SERVER_VARIABLES,
    client: {},
    // Server variables are read at run time, from `source`: Next.js inlines only NEXT_PUBLIC_ ones, and the console has none.
    runtimeEnv,
    emptyStringAsUndefined: true,
    skipValidation,
    onValidationError: (issues) => {
      throw new ConfigError(issues.map(issueLine));
    },
  });
}

export type Env = ReturnType<typeof readEnv>;

/**
 * What `next build` and `next dev` check before anything else (next.config.ts): the format of what is set.
 * Nothing is required here, secrets above all: a container's build has none, and the console requires them
 * at start. SKIP_ENV_VALIDATION=1 skips it, as create-t3-app's does; the start's check still runs.
 * @public knip's production pass does not read Next's own config file, which is what calls it.
 */
export function checkEnvAtBuild(source: Readonly<Record<string, string | undefined>> = process.env): void {
  readEnv(source, { skipValidation: !!source.SKIP_ENV_VALIDATION });
}
