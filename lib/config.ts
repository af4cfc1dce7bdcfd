import "server-only";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_APP_NAMES, defaultAppCredentials, EMULATOR_MOUNT_PATH, isLoopbackHost } from "@/lib/emulator";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The one place that reads the environment. Everything is validated once, at first use, and a bad
 * value fails with a message that says how to fix it.
 */

const MIN_PASSWORD_LENGTH = 32;
/** The platform's spec leaves the grace period of a used refresh token "not shown"; the emulator's default is 60 s. */
const DEFAULT_REFRESH_GRACE_S = 60;

const emptyAsUnset = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUnset, z.string().trim().optional());
/** The URL's scheme, or undefined when it is not a URL (zod runs refinements even after .url() failed). */
function schemeOf(value: string): string | undefined {
  try {
    return new URL(value).protocol;
  } catch {
    return undefined;
  }
}

const optionalUrl = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .trim()
    .url("must be an absolute URL such as https://slack.com")
    .refine((u) => /^https?:$/.test(schemeOf(u) ?? ""), "must use http or https")
    .optional(),
);
const optionalRedisUrl = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .trim()
    .url("must be a Redis URL such as redis://localhost:6379 (rediss:// for TLS)")
    .refine((u) => /^rediss?:$/.test(schemeOf(u) ?? ""), "must use redis:// or rediss://, for example redis://localhost:6379")
    .optional(),
);
const optionalDatabaseUrl = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .trim()
    .url("must be a PostgreSQL URL such as postgres://user:password@localhost:5432/switchboard")
    .refine(
      (u) => /^postgres(ql)?:$/.test(schemeOf(u) ?? ""),
      "must use postgres:// or postgresql://, for example postgres://user:password@localhost:5432/switchboard",
    )
    .optional(),
);
const intWithDefault = (fallback: number, min: number, max: number) => z.preprocess(emptyAsUnset, z.coerce.number().int().min(min).max(max).default(fallback));
const boolWithDefault = (fallback: boolean) =>
  z.preprocess(
    emptyAsUnset,
    z
      .enum(["1", "0", "true", "false", "on", "off", "yes", "no"])
      .transform((v) => ["1", "true", "on", "yes"].includes(v))
      .default(fallback),
  );
const scopeList = (fallback: string) =>
  z.preprocess(
    emptyAsUnset,
    z
      .string()
      .default(fallback)
      .transform((s) =>
        s
          .split(/[\s,]+/)
          .map((x) => x.trim())
          .filter(Boolean),
      ),
  );

/** A number of proxies, or yes/no for one/none. */
const proxyHops = z.preprocess(
  (value) => {
    const v = emptyAsUnset(value);
    if (typeof v !== "string") return v;
    const word = v.trim().toLowerCase();
    if (["true", "yes", "on"].includes(word)) return "1";
    if (["false", "no", "off"].includes(word)) return "0";
    return word;
  },
  z.coerce.number({ error: "must be the number of proxies in front of the console that set X-Forwarded-For (0 for none)" }).int().min(0).max(10).default(0),
);

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: intWithDefault(3000, 1, 65535),
  /** The interface the console listens on (scripts/start.sh passes it to `next start -H`). */
  HOST: z.preprocess(emptyAsUnset, z.string().trim().default("127.0.0.1")),
  /** Host names browsers may reach the console at besides APP_ORIGIN's (a DNS rebinding page names its own). */
  ALLOWED_HOSTS: scopeList(""),
  /** How many proxies in front of the console append the client's address to X-Forwarded-For. */
  TRUSTED_PROXY: proxyHops,
  /** The embedded emulator's admin credential (Authorization: Bearer); required when HOST is exposed. */
  EMULATOR_ADMIN_TOKEN: optionalString,
  /** The console's public origin, as browsers reach it (used for the Origin check and the redirect URI). */
  APP_ORIGIN: optionalUrl,
  PLATFORM_BASE_URL: optionalUrl,
  CLIENT_ID: optionalString,
  CLIENT_SECRET: optionalString,
  SIGNING_SECRET: optionalString,
  REDIRECT_URI: optionalUrl,
  BOT_SCOPES: scopeList("users:read,channels:read,channels:history,chat:write,chat:write.public,incoming-webhook,app_mentions:read"),
  USER_SCOPES: scopeList("users:read"),
  SESSION_PASSWORD: optionalString,
  /** Refresh a token proactively when it expires within this many seconds. */
  REFRESH_WINDOW_S: intWithDefault(600, 0, 43_200),
  /**
   * The platform's grace period for a used refresh token, which its spec does not give: unset, the embedded
   * emulator's EMULATOR_REFRESH_GRACE_S with the emulator, else 60 (the emulator's default).
   */
  REFRESH_GRACE_S: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(86_400).optional()),
  UPSTREAM_TIMEOUT_MS: intWithDefault(10_000, 100, 120_000),
  /** The background refresher (lib/rotation/refresher.ts): keeps every rotating token alive with nobody watching. */
  BACKGROUND_REFRESH: boolWithDefault(true),
  /** It refreshes a rotating token this many seconds before it expires (one refresh per 12-hour lifetime). */
  REFRESH_HORIZON_S: intWithDefault(7_200, 300, 36_000),
  /** Tokens issued together are refreshed spread over this many seconds before their horizon (no thundering herd). */
  REFRESH_SPREAD_S: intWithDefault(600, 0, 3_600),
  /** How often it looks for tokens due. */
  REFRESHER_INTERVAL_S: intWithDefault(30, 1, 3_600),
  /** An incoming-webhook URL (WEBHOOK_HOSTS, or the embedded emulator's) told when a token needs a person: reinstall. */
  REFRESH_ALERT_WEBHOOK_URL: optionalUrl,
  /** Or: an installation id whose bot posts the alert to REFRESH_ALERT_CHANNEL (a channel id) with chat.postMessage. */
  REFRESH_ALERT_INSTALLATION: optionalString,
  REFRESH_ALERT_CHANNEL: optionalString,
  /** The token API answers a token valid for at least this many seconds (at most 12 h less REFRESH_HORIZON_S). */
  TOKEN_API_MARGIN_S: intWithDefault(3_600, 0, 43_200),
  /** Requests a second one API key may make to the token API (twice as many at once); more answer 429. */
  TOKEN_API_RATE_PER_S: intWithDefault(200, 1, 100_000),
  /** Comma-separated hosts an incoming-webhook URL may point at (the real platform's webhook host). */
  WEBHOOK_HOSTS: scopeList("hooks.slack.com"),
  /** Set when several instances serve the console: they coordinate token refreshes through this Redis. */
  REDIS_URL: optionalRedisUrl,
  /** The embedded store's folder (PGlite), or memory:// for one that lives as long as the process. */
  DATA_DIR: optionalString,
  /** A PostgreSQL database instead of the embedded store: what several instances share. */
  DATABASE_URL: optionalDatabaseUrl,
  /** Keys that seal the store's secrets, newest first; unset: derived from SESSION_PASSWORD. */
  ENCRYPTION_KEYS: optionalString,
  /**
   * How people get in: `oidc` signs them in with the platform ("Sign in with", OpenID Connect); `none` makes
   * whoever reaches the console its operator. Unset: `none` on loopback, and a refusal to start when exposed.
   */
  AUTH_MODE: z.preprocess(emptyAsUnset, z.enum(["none", "oidc"], { error: "must be oidc (people sign in with the platform) or none" }).optional()),
  /** Comma-separated user ids who see and do everything once signed in. */
  ADMIN_USERS: scopeList(""),
  /** Where the platform sends a sign-in back to (registered with the app, beside REDIRECT_URI). */
  SIGN_IN_REDIRECT_URI: optionalUrl,
  LOG_LEVEL: z.preprocess(emptyAsUnset, z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info")),
  /** The bearer token GET /api/metrics asks for (Prometheus's `authorization` setting); unset, the route is off. */
  METRICS_TOKEN: optionalString,
  /** On SIGTERM, how long readiness answers 503 before the listener closes (time for a load balancer's health checks to notice). */
  SHUTDOWN_DELAY_S: intWithDefault(0, 0, 120),
  /** On SIGTERM, the most the instance takes to finish its work and exit (in-flight requests and refreshes, the audit). */
  SHUTDOWN_TIMEOUT_S: intWithDefault(20, 1, 600),
  EMULATOR_USERS: intWithDefault(3000, 1, 1_000_000),
  EMULATOR_WORKSPACES: intWithDefault(1, 1, 1_000),
  EMULATOR_SEED: z.preprocess(emptyAsUnset, z.string().default("switchboard")),
  EMULATOR_REFRESH_GRACE_S: intWithDefault(60, 0, 86_400),
  EMULATOR_CURSOR_TTL_S: intWithDefault(900, 1, 86_400 * 30),
  EMULATOR_RATE_LIMITS: boolWithDefault(false),
});

export type Upstream = { kind: "emulator"; baseUrl: string } | { kind: "platform"; baseUrl: string };

export interface Config {
  env: "development" | "production" | "test";
  /** The interface the console listens on (HOST). */
  host: string;
  /** Whether HOST is not a loopback address: others can reach the console, so nothing may rely on being alone. */
  exposed: boolean;
  appOrigin: string;
  /**
   * The Host names browsers reach the console at: APP_ORIGIN's, ALLOWED_HOSTS, and this machine's
   * loopback names on PORT. Every cookie-authenticated route and the emulator's admin surface refuse others.
   */
  allowedHosts: string[];
  /** Proxies in front of the console that append to X-Forwarded-For (0: the address is the socket's). */
  trustedProxyHops: number;
  secureCookies: boolean;
  upstream: Upstream;
  clientId: string;
  clientSecret: string;
  /** The console app's signing secret. */
  signingSecret: string;
  /**
   * The apps whose Events API requests POST /api/events verifies: the console app's, and with the embedded
   * emulator its legacy app's too, whose installations the console also holds. Each with its app id and
   * name where the console knows them (the emulator's default apps), so /events can say which app a
   * url_verification, which names none, was for.
   */
  eventSigners: Array<{ signingSecret: string; appId: string | null; appName: string | null }>;
  redirectUri: string;
  /** Who may use the console (AUTH_MODE, ADMIN_USERS, SIGN_IN_REDIRECT_URI). */
  auth: {
    /** `oidc`: every page and API route needs a sign-in (lib/signin); `none`: whoever reaches it is the operator. */
    mode: "none" | "oidc";
    /** User ids (U…, W…) who see every installation once signed in. */
    adminUsers: string[];
    /** The sign-in's redirect URI, `{APP_ORIGIN}/auth/callback` unless set. */
    redirectUri: string;
  };
  botScopes: string[];
  userScopes: string[];
  /** iron-session's password map: the highest id seals, every id unseals. */
  sessionPasswords: Record<string, string>;
  refreshWindowS: number;
  /**
   * How long after its first use the platform still answers a refresh token (with the same new pair). A
   * refresh result the console keeps for a pasted credential (the app configuration token) lives no longer.
   */
  refreshGraceS: number;
  upstreamTimeoutMs: number;
  /** The background refresher (lib/rotation/refresher.ts). */
  refresher: {
    enabled: boolean;
    horizonS: number;
    spreadS: number;
    intervalS: number;
    /** Where a token that needs a person (reinstall) is announced, when anywhere. */
    alert: { kind: "webhook"; url: string } | { kind: "installation"; installationId: string; channel: string } | null;
  };
  /** The token API for the app's own backend (GET /api/v1/installations/{team_id}/token). */
  tokenApi: { marginS: number; ratePerS: number };
  webhookHosts: string[];
  redisUrl: string | undefined;
  /**
   * Where installations, tokens and pasted secrets live (lib/store): PostgreSQL when DATABASE_URL is set,
   * else the embedded PGlite under DATA_DIR (an absolute path, or memory://).
   */
  store: { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };
  /**
   * ENCRYPTION_KEYS, newest first, as given (lib/store/sealing.ts derives the keys); empty when unset, and the
   * store's keys then derive from sessionPasswords.
   */
  encryptionKeys: string[];
  logLevel: string;
  /** Operating a hosted instance (lib/ops): the metrics route's token (null: off) and the bounds of a graceful shutdown. */
  ops: { metricsToken: string | null; shutdownDelayS: number; shutdownTimeoutS: number };
  emulator: {
    users: number;
    workspaces: number;
    seed: string;
    refreshGraceS: number;
    cursorTtlS: number;
    rateLimits: boolean;
    /** The admin surface's bearer token (EMULATOR_ADMIN_TOKEN, else one made for this process). */
    adminToken: string;
    /** Whether EMULATOR_ADMIN_TOKEN was set, rather than made for this process. */
    adminTokenConfigured: boolean;
  };
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Switchboard's configuration is not valid:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const HOW_TO_MAKE_A_PASSWORD =
  `set SESSION_PASSWORD to a random string of at least ${MIN_PASSWORD_LENGTH} characters, ` +
  `for example the output of: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

/** Several passwords, newest first, separated by spaces or commas: the newest seals, all unseal. */
function parseSessionPasswords(raw: string | undefined, env: Config["env"], problems: string[], warn: (m: string) => void) {
  if (!raw) {
    if (env === "production") {
      problems.push(`SESSION_PASSWORD is missing: ${HOW_TO_MAKE_A_PASSWORD}`);
      return {};
    }
    warn(`SESSION_PASSWORD is not set: using a generated one, so sessions end when the server restarts. To keep them, ${HOW_TO_MAKE_A_PASSWORD}`);
    return { "1": randomBytes(32).toString("base64url") };
  }
  const list = raw.split(/[\s,]+/).filter(Boolean);
  const short = list.findIndex((p) => p.length < MIN_PASSWORD_LENGTH);
  if (short >= 0) {
    problems.push(`SESSION_PASSWORD entry ${short + 1} is shorter than ${MIN_PASSWORD_LENGTH} characters: ${HOW_TO_MAKE_A_PASSWORD}`);
  }
  const passwords: Record<string, string> = {};
  list.forEach((password, i) => {
    passwords[String(list.length - i)] = password;
  });
  return passwords;
}

/** DATA_DIR's value for a store that lives in memory, as long as the process. */
export const MEMORY_DATA_DIR = "memory://";
/** The embedded store's folder when DATA_DIR is unset, relative to where the console starts (git-ignored). */
const DEFAULT_DATA_DIR = ".data";

const HOW_TO_MAKE_A_KEY =
  `make one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))" ` +
  `(32 bytes in base64, used as it is; any other entry of at least ${MIN_PASSWORD_LENGTH} characters is a passphrase the key derives from)`;

/** ENCRYPTION_KEYS: newest first, comma or space separated; each a 32-byte base64 key or a long passphrase. */
function parseEncryptionKeys(raw: string | undefined, problems: string[]): string[] {
  if (!raw) return [];
  const list = raw.split(/[\s,]+/).filter(Boolean);
  list.forEach((entry, i) => {
    if (entry.length < MIN_PASSWORD_LENGTH)
      problems.push(`ENCRYPTION_KEYS entry ${i + 1} is shorter than ${MIN_PASSWORD_LENGTH} characters: ${HOW_TO_MAKE_A_KEY}`);
  });
  return list;
}

/** Whether a HOST to listen on reaches beyond this machine (anything but a loopback address or name). */
export function isExposedHost(host: string): boolean {
  return !isLoopbackHost(host);
}

/**
 * Why the console is reachable beyond this machine, or undefined when it is not. Listening on loopback is
 * not enough: behind a proxy on the same machine, browsers reach it by APP_ORIGIN's name (or an
 * ALLOWED_HOSTS one), so any of those that is not a loopback name makes it exposed too.
 */
function exposureReason(host: string, appOrigin: string, allowedHosts: string[]): string | undefined {
  if (isExposedHost(host)) return `HOST ${host} is not a loopback address`;
  const originHost = new URL(appOrigin).hostname;
  if (isExposedHost(originHost)) return `APP_ORIGIN ${appOrigin} names a host beyond this machine (a proxy in front)`;
  const named = allowedHosts.find((entry) => {
    try {
      return isExposedHost(new URL(`http://${entry}`).hostname);
    } catch {
      return true;
    }
  });
  return named === undefined ? undefined : `ALLOWED_HOSTS names ${named}, a host beyond this machine`;
}

const HOW_TO_MAKE_AN_ADMIN_TOKEN =
  "npm start generates one into .env.local; or set EMULATOR_ADMIN_TOKEN yourself (the same on every instance), for example to the output of: " +
  `node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`;

/** A platform user id: U… or W… (an Enterprise Grid user), letters and digits. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

function parseAuth(
  e: z.infer<typeof EnvSchema>,
  appOrigin: string,
  whyExposed: string | undefined,
  problems: string[],
  warn: (m: string) => void,
): Config["auth"] {
  const badAdmins = e.ADMIN_USERS.filter((id) => !USER_ID.test(id));
  if (badAdmins.length > 0) {
    problems.push(
      `ADMIN_USERS must list user ids (such as U0123ABCD, comma-separated), not ${badAdmins.map((id) => JSON.stringify(id)).join(", ")}: a member's id is on their profile (⋮, Copy member ID).`,
    );
  }
  const redirectUri = e.SIGN_IN_REDIRECT_URI ?? `${appOrigin}/auth/callback`;
  let mode = e.AUTH_MODE;
  if (mode === undefined) {
    if (whyExposed) {
      problems.push(
        `AUTH_MODE is not set and ${whyExposed}, so anyone who reaches the console would act as its operator. ` +
          `Set AUTH_MODE=oidc to have people sign in with the platform (with the app's CLIENT_ID and CLIENT_SECRET; its redirect URLs must include ${redirectUri}, which the embedded emulator's apps accept), ` +
          "or AUTH_MODE=none to let anyone who reaches it be the operator (unsafe: only behind something that already keeps strangers out).",
      );
    }
    mode = "none";
  } else if (mode === "none" && whyExposed) {
    warn(
      `AUTH_MODE=none and ${whyExposed}: anyone who reaches the console acts as its operator, with every installation's tokens. Set AUTH_MODE=oidc to sign people in.`,
    );
  }
  return { mode, adminUsers: [...new Set(e.ADMIN_USERS)], redirectUri };
}

/** A rotating token lives 12 hours (spec 2.1: expires_in is always 43200). */
const ROTATING_TOKEN_LIFETIME_S = 43_200;

/**
 * The background refresher's settings. A token handed to a backend must outlive the next refresh (the
 * platform revokes the oldest when more than two exist after one), so the token API's margin and the
 * refresh horizon together stay within a token's 12 hours.
 */
function parseRefresher(e: z.infer<typeof EnvSchema>, problems: string[], warn: (m: string) => void): Config["refresher"] {
  // A token is next refreshed this long before it expires, at the earliest: by the refresher (its horizon and
  // spread) or the token API (its margin). The refresh after that revokes it (the oldest of three); it must
  // come after the last promise made for it, its hand-out plus the margin. A call through the console
  // refreshes within REFRESH_WINDOW_S too: a window that large is said, not refused (tests refresh on every call).
  const earliest = Math.max(e.REFRESH_HORIZON_S + e.REFRESH_SPREAD_S, e.TOKEN_API_MARGIN_S);
  if (e.TOKEN_API_MARGIN_S + earliest > ROTATING_TOKEN_LIFETIME_S) {
    problems.push(
      `TOKEN_API_MARGIN_S (${e.TOKEN_API_MARGIN_S}) plus the earliest a token is refreshed before it expires (${earliest} s: the larger of REFRESH_HORIZON_S plus REFRESH_SPREAD_S, and TOKEN_API_MARGIN_S) is more than a token's 12 hours (43200 s): a token the API hands out would be revoked by the refresh after next while a backend still holds it. Lower them.`,
    );
  } else if (e.TOKEN_API_MARGIN_S + e.REFRESH_WINDOW_S > ROTATING_TOKEN_LIFETIME_S) {
    warn(
      `REFRESH_WINDOW_S (${e.REFRESH_WINDOW_S}) plus TOKEN_API_MARGIN_S (${e.TOKEN_API_MARGIN_S}) is more than a token's 12 hours: calls through the console refresh so early that a token the API handed out can be revoked before its margin ends.`,
    );
  }
  let alert: Config["refresher"]["alert"] = null;
  if (e.REFRESH_ALERT_WEBHOOK_URL) alert = { kind: "webhook", url: e.REFRESH_ALERT_WEBHOOK_URL };
  if (e.REFRESH_ALERT_INSTALLATION || e.REFRESH_ALERT_CHANNEL) {
    if (alert) problems.push("Set REFRESH_ALERT_WEBHOOK_URL or REFRESH_ALERT_INSTALLATION with REFRESH_ALERT_CHANNEL, not both.");
    else if (!e.REFRESH_ALERT_INSTALLATION || !e.REFRESH_ALERT_CHANNEL) {
      problems.push("REFRESH_ALERT_INSTALLATION and REFRESH_ALERT_CHANNEL go together: the installation whose bot posts, and the channel id it posts to.");
    } else alert = { kind: "installation", installationId: e.REFRESH_ALERT_INSTALLATION, channel: e.REFRESH_ALERT_CHANNEL };
  }
  return { enabled: e.BACKGROUND_REFRESH, horizonS: e.REFRESH_HORIZON_S, spreadS: e.REFRESH_SPREAD_S, intervalS: e.REFRESHER_INTERVAL_S, alert };
}

export function parseConfig(source: Record<string, string | undefined>, warn: (m: string) => void = () => {}): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const appOrigin = (e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const whyExposed = exposureReason(e.HOST, appOrigin, e.ALLOWED_HOSTS);
  const exposed = whyExposed !== undefined;

  let upstream: Upstream;
  let clientId = e.CLIENT_ID;
  let clientSecret = e.CLIENT_SECRET;
  let signingSecret = e.SIGNING_SECRET;
  const eventSigners: Config["eventSigners"] = [];
  if (e.PLATFORM_BASE_URL) {
    upstream = { kind: "platform", baseUrl: e.PLATFORM_BASE_URL.replace(/\/+$/, "") };
    if (!clientId) problems.push("CLIENT_ID is required when PLATFORM_BASE_URL is set: copy it from your app's Basic Information page.");
    if (!clientSecret) problems.push("CLIENT_SECRET is required when PLATFORM_BASE_URL is set: copy it from your app's Basic Information page.");
    if (!signingSecret) warn("SIGNING_SECRET is not set: POST /api/events will refuse every request until it is.");
  } else {
    upstream = { kind: "emulator", baseUrl: `${appOrigin}${EMULATOR_MOUNT_PATH}` };
    const app = defaultAppCredentials(e.EMULATOR_SEED, "rotation");
    if (exposed && !e.EMULATOR_ADMIN_TOKEN) {
      problems.push(
        `EMULATOR_ADMIN_TOKEN is missing: ${whyExposed}, so the embedded emulator's admin surface needs a credential. ${HOW_TO_MAKE_AN_ADMIN_TOKEN}`,
      );
    }
    if (e.NODE_ENV === "production" && source.EMULATOR_SEED === undefined) {
      warn(
        "The embedded emulator's app credentials and signing secret derive from the default EMULATOR_SEED, which is public: " +
          "anyone who can reach this console can sign events for it. Set EMULATOR_SEED to a private value if others can reach it.",
      );
    }
    clientId ??= app.clientId;
    clientSecret ??= app.clientSecret;
    // A SIGNING_SECRET of its own is some other app's, whose id and name the console does not know.
    const isDefaultApp = signingSecret === undefined || signingSecret === app.signingSecret;
    signingSecret ??= app.signingSecret;
    eventSigners.push({
      signingSecret,
      appId: isDefaultApp ? app.appId : null,
      appName: isDefaultApp ? DEFAULT_APP_NAMES.rotation : null,
    });
    const legacy = defaultAppCredentials(e.EMULATOR_SEED, "legacy");
    eventSigners.push({ signingSecret: legacy.signingSecret, appId: legacy.appId, appName: DEFAULT_APP_NAMES.legacy });
  }
  if (upstream.kind === "platform" && signingSecret) eventSigners.push({ signingSecret, appId: null, appName: null });

  if (e.EMULATOR_ADMIN_TOKEN !== undefined && e.EMULATOR_ADMIN_TOKEN.length < MIN_PASSWORD_LENGTH) {
    problems.push(`EMULATOR_ADMIN_TOKEN is shorter than ${MIN_PASSWORD_LENGTH} characters: ${HOW_TO_MAKE_AN_ADMIN_TOKEN}`);
  }
  const auth = parseAuth(e, appOrigin, whyExposed, problems, warn);
  if (auth.mode === "oidc" && whyExposed && upstream.kind === "emulator") {
    warn(
      `AUTH_MODE=oidc with the embedded emulator as the sign-in provider and ${whyExposed}: the emulator's sign-in page lets anyone pick who they are, an ADMIN_USERS member too, so sign-in keeps no stranger out. Set PLATFORM_BASE_URL (and the app's credentials) to sign people in with the platform.`,
    );
  }
  const sessionPasswords = parseSessionPasswords(e.SESSION_PASSWORD, e.NODE_ENV, problems, warn);
  const encryptionKeys = parseEncryptionKeys(e.ENCRYPTION_KEYS, problems);
  if (encryptionKeys.length === 0 && !e.SESSION_PASSWORD && e.NODE_ENV !== "production") {
    warn(
      "Neither ENCRYPTION_KEYS nor SESSION_PASSWORD is set: the store seals its secrets with a key made for this process, so the tokens it keeps cannot be read after a restart. Set SESSION_PASSWORD (npm start makes one) or ENCRYPTION_KEYS.",
    );
  }
  const refresher = parseRefresher(e, problems, warn);
  if (e.METRICS_TOKEN !== undefined && e.METRICS_TOKEN.length < MIN_PASSWORD_LENGTH)
    problems.push(
      `METRICS_TOKEN is shorter than ${MIN_PASSWORD_LENGTH} characters: anyone who guesses it reads the instance's metrics. ${HOW_TO_MAKE_A_PASSWORD.replace(/^set SESSION_PASSWORD to/, "Set it to")}`,
    );
  if (e.SHUTDOWN_DELAY_S >= e.SHUTDOWN_TIMEOUT_S)
    problems.push(
      `SHUTDOWN_DELAY_S (${e.SHUTDOWN_DELAY_S}) must be shorter than SHUTDOWN_TIMEOUT_S (${e.SHUTDOWN_TIMEOUT_S}), which bounds the whole shutdown.`,
    );
  if (problems.length > 0) throw new ConfigError(problems);

  // This machine's loopback names on the console's port (PORT, and APP_ORIGIN's when that is a loopback
  // origin): another server of this machine (localhost:8080) is another origin.
  const origin = new URL(appOrigin);
  const ports = new Set([String(e.PORT), ...(isLoopbackHost(origin.hostname) && origin.port ? [origin.port] : [])]);
  const loopbackHosts = [...ports].flatMap((port) => ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${port}`));
  const allowedHosts = [...new Set([origin.host.toLowerCase(), ...e.ALLOWED_HOSTS.map((h) => h.toLowerCase()), ...loopbackHosts])];

  return {
    env: e.NODE_ENV,
    host: e.HOST,
    exposed,
    appOrigin,
    allowedHosts,
    trustedProxyHops: e.TRUSTED_PROXY,
    secureCookies: appOrigin.startsWith("https:"),
    upstream,
    clientId: clientId ?? "",
    clientSecret: clientSecret ?? "",
    signingSecret: signingSecret ?? "",
    eventSigners,
    redirectUri: e.REDIRECT_URI ?? `${appOrigin}/oauth/callback`,
    auth,
    botScopes: e.BOT_SCOPES,
    userScopes: e.USER_SCOPES,
    sessionPasswords,
    refreshWindowS: e.REFRESH_WINDOW_S,
    refreshGraceS: e.REFRESH_GRACE_S ?? (upstream.kind === "emulator" ? e.EMULATOR_REFRESH_GRACE_S : DEFAULT_REFRESH_GRACE_S),
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    refresher,
    tokenApi: { marginS: e.TOKEN_API_MARGIN_S, ratePerS: e.TOKEN_API_RATE_PER_S },
    webhookHosts: e.WEBHOOK_HOSTS.map((h) => h.toLowerCase()),
    redisUrl: e.REDIS_URL,
    store: e.DATABASE_URL
      ? { kind: "postgres", url: e.DATABASE_URL }
      : { kind: "pglite", dataDir: e.DATA_DIR === MEMORY_DATA_DIR ? MEMORY_DATA_DIR : path.resolve(/*turbopackIgnore: true*/ e.DATA_DIR ?? DEFAULT_DATA_DIR) },
    encryptionKeys,
    logLevel: e.LOG_LEVEL,
    ops: { metricsToken: e.METRICS_TOKEN ?? null, shutdownDelayS: e.SHUTDOWN_DELAY_S, shutdownTimeoutS: e.SHUTDOWN_TIMEOUT_S },
    emulator: {
      users: e.EMULATOR_USERS,
      workspaces: e.EMULATOR_WORKSPACES,
      seed: e.EMULATOR_SEED,
      refreshGraceS: e.EMULATOR_REFRESH_GRACE_S,
      cursorTtlS: e.EMULATOR_CURSOR_TTL_S,
      rateLimits: e.EMULATOR_RATE_LIMITS,
      // Without one (a loopback-only console), the console's own in-process calls still need a credential.
      // One per process, not per route bundle: the embedded emulator is one per process too.
      adminToken: e.EMULATOR_ADMIN_TOKEN ?? processSingleton("generatedEmulatorAdminToken", () => randomBytes(32).toString("base64url")),
      // Only a token someone set is sent to an emulator outside this process (PLATFORM_BASE_URL).
      adminTokenConfigured: e.EMULATOR_ADMIN_TOKEN !== undefined,
    },
  };
}

let cached: Config | undefined;

/**
 * The validated configuration of this process (read once per module instance). Next.js loads this module
 * once per route bundle, so each reads it again: a warning is printed once per process all the same.
 */
export function getConfig(): Config {
  const warned = processSingleton("configWarnings", () => new Set<string>());
  cached ??= parseConfig(process.env, (message) => {
    if (warned.has(message)) return;
    warned.add(message);
    console.warn(`[switchboard] ${message}`);
  });
  return cached;
}
