import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import path from "node:path";
import { DEFAULT_EMULATOR_SEED, EMULATOR_PATH, emulatorDefaultApp } from "@/lib/emulator-defaults";
import { ConfigError, HOW_TO_MAKE_A_PASSWORD, HOW_TO_MAKE_AN_ADMIN_TOKEN, readEnv, type Env } from "@/lib/env";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The console's configuration: the environment as lib/env.ts reads it, and what only the whole of it can say
 * (the secrets a production start needs, the settings that must agree, the defaults that follow from
 * others), each refusal saying how to fix it. Read once, at start.
 */

export { ConfigError };

/** The platform's spec leaves the grace period of a used refresh token "not shown"; the emulator's default is 60 s. */
const DEFAULT_REFRESH_GRACE_S = 60;

export type Upstream = { kind: "emulator"; baseUrl: string } | { kind: "platform"; baseUrl: string };

type RefreshAlert = { kind: "webhook"; url: string } | { kind: "installation"; installationId: string; channel: string } | null;

type Store = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

type EventSigner = { signingSecret: string; appId: string | null; appName: string | null };

/** iron-session's password map from SESSION_PASSWORD's list, newest first: the highest id seals, every id unseals. */
function sessionPasswordsOf(list: string[] | undefined, env: Env["NODE_ENV"], problems: string[], warn: (m: string) => void) {
  if (!list) {
    if (env === "production") {
      problems.push(`SESSION_PASSWORD is missing: ${HOW_TO_MAKE_A_PASSWORD}`);
      return {};
    }
    warn(`SESSION_PASSWORD is not set: using a generated one, so sessions end when the server restarts. To keep them, ${HOW_TO_MAKE_A_PASSWORD}`);
    return { "1": randomBytes(32).toString("base64url") };
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

/** Whether a HOST to listen on, or a URL's host name, reaches beyond this machine: anything but `localhost`, 127.0.0.0/8 or ::1. */
export function isExposedHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return !(name === "localhost" || name === "::1" || name === "0:0:0:0:0:0:0:1" || /^127(\.\d{1,3}){3}$/.test(name));
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

/**
 * The one exposure warning at start: reachable from other machines, but APP_ORIGIN left at its default. Then the
 * console answers only http://localhost:PORT (a teammate opening it by this machine's address is refused), and
 * were that name allowed, sign-in and the OAuth redirect would still send them to localhost: their own machine.
 */
function withoutAppOrigin(whyExposed: string, appOrigin: string, port: number): string {
  return (
    `${whyExposed}, but APP_ORIGIN is not set: the console answers only at ${appOrigin}, so people who open it by this machine's name or address ` +
    `are refused, and sign-in and the OAuth redirect would send them to ${appOrigin}, which is their own machine. ` +
    `Set APP_ORIGIN to the address people open, such as http://${hostname()}:${port} (https:// behind TLS); if ${appOrigin} is that address ` +
    "(a port published on this machine's loopback only, a tunnel), set APP_ORIGIN to it to say so."
  );
}

/** A platform user id: U… or W… (an Enterprise Grid user), letters and digits. */
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** Who may use the console (AUTH_MODE, ADMIN_USERS, SIGN_IN_REDIRECT_URI). */
function parseAuth(e: Env, appOrigin: string, whyExposed: string | undefined, problems: string[], warn: (m: string) => void) {
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
  return {
    /** `oidc`: every page and API route needs a sign-in (lib/signin); `none`: whoever reaches it is the operator. */
    mode,
    /** User ids (U…, W…) who see every installation once signed in. */
    adminUsers: [...new Set(e.ADMIN_USERS)],
    /** The sign-in's redirect URI, `{APP_ORIGIN}/auth/callback` unless set. */
    redirectUri,
  };
}

/** A rotating token lives 12 hours (spec 2.1: expires_in is always 43200). */
const ROTATING_TOKEN_LIFETIME_S = 43_200;

/**
 * The background refresher's settings (lib/installations/rotation/refresher.ts). A token handed to a backend must outlive
 * the next refresh (the platform revokes the oldest when more than two exist after one), so the token API's
 * margin and the refresh horizon together stay within a token's 12 hours.
 */
function parseRefresher(e: Env, problems: string[], warn: (m: string) => void) {
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
  let alert: RefreshAlert = null;
  if (e.REFRESH_ALERT_WEBHOOK_URL) alert = { kind: "webhook", url: e.REFRESH_ALERT_WEBHOOK_URL };
  if (e.REFRESH_ALERT_INSTALLATION || e.REFRESH_ALERT_CHANNEL) {
    if (alert) problems.push("Set REFRESH_ALERT_WEBHOOK_URL or REFRESH_ALERT_INSTALLATION with REFRESH_ALERT_CHANNEL, not both.");
    else if (!e.REFRESH_ALERT_INSTALLATION || !e.REFRESH_ALERT_CHANNEL) {
      problems.push("REFRESH_ALERT_INSTALLATION and REFRESH_ALERT_CHANNEL go together: the installation whose bot posts, and the channel id it posts to.");
    } else alert = { kind: "installation", installationId: e.REFRESH_ALERT_INSTALLATION, channel: e.REFRESH_ALERT_CHANNEL };
  }
  return {
    enabled: e.BACKGROUND_REFRESH,
    horizonS: e.REFRESH_HORIZON_S,
    spreadS: e.REFRESH_SPREAD_S,
    intervalS: e.REFRESHER_INTERVAL_S,
    concurrency: e.REFRESHER_CONCURRENCY,
    /** Where a token that needs a person (reinstall) is announced, when anywhere. */
    alert,
  };
}

export function parseConfig(source: Readonly<Record<string, string | undefined>>, warn: (m: string) => void = () => {}) {
  const e = readEnv(source);
  const problems: string[] = [];
  const appOrigin = (e.APP_ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const whyExposed = exposureReason(e.HOST, appOrigin, e.ALLOWED_HOSTS);
  const exposed = whyExposed !== undefined;
  if (whyExposed && e.APP_ORIGIN === undefined) warn(withoutAppOrigin(whyExposed, appOrigin, e.PORT));
  const seed = e.EMULATOR_SEED ?? DEFAULT_EMULATOR_SEED;

  let upstream: Upstream;
  let clientId = e.CLIENT_ID;
  let clientSecret = e.CLIENT_SECRET;
  let signingSecret = e.SIGNING_SECRET;
  const eventSigners: EventSigner[] = [];
  if (e.PLATFORM_BASE_URL) {
    upstream = { kind: "platform", baseUrl: e.PLATFORM_BASE_URL.replace(/\/+$/, "") };
    if (!clientId) problems.push("CLIENT_ID is required when PLATFORM_BASE_URL is set: copy it from your app's Basic Information page.");
    if (!clientSecret) problems.push("CLIENT_SECRET is required when PLATFORM_BASE_URL is set: copy it from your app's Basic Information page.");
    if (!signingSecret) warn("SIGNING_SECRET is not set: POST /api/events will refuse every request until it is.");
  } else {
    upstream = { kind: "emulator", baseUrl: `${appOrigin}${EMULATOR_PATH}` };
    const app = emulatorDefaultApp(seed, "rotation");
    if (exposed && !e.EMULATOR_ADMIN_TOKEN) {
      problems.push(
        `EMULATOR_ADMIN_TOKEN is missing: ${whyExposed}, so the embedded emulator's admin surface needs a credential. ${HOW_TO_MAKE_AN_ADMIN_TOKEN}`,
      );
    }
    if (e.NODE_ENV === "production" && e.EMULATOR_SEED === undefined) {
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
    eventSigners.push({ signingSecret, appId: isDefaultApp ? app.appId : null, appName: isDefaultApp ? app.appName : null });
    const legacy = emulatorDefaultApp(seed, "legacy");
    eventSigners.push({ signingSecret: legacy.signingSecret, appId: legacy.appId, appName: legacy.appName });
  }
  if (upstream.kind === "platform" && signingSecret) eventSigners.push({ signingSecret, appId: null, appName: null });

  const auth = parseAuth(e, appOrigin, whyExposed, problems, warn);
  if (auth.mode === "oidc" && whyExposed && upstream.kind === "emulator") {
    warn(
      `AUTH_MODE=oidc with the embedded emulator as the sign-in provider and ${whyExposed}: the emulator's sign-in page lets anyone pick who they are, an ADMIN_USERS member too, so sign-in keeps no stranger out. Set PLATFORM_BASE_URL (and the app's credentials) to sign people in with the platform.`,
    );
  }
  const sessionPasswords = sessionPasswordsOf(e.SESSION_PASSWORD, e.NODE_ENV, problems, warn);
  const encryptionKeys = e.ENCRYPTION_KEYS ?? [];
  if (encryptionKeys.length === 0 && !e.SESSION_PASSWORD && e.NODE_ENV !== "production") {
    warn(
      "Neither ENCRYPTION_KEYS nor SESSION_PASSWORD is set: the store seals its secrets with a key made for this process, so the tokens it keeps cannot be read after a restart. Set SESSION_PASSWORD (npm start makes one) or ENCRYPTION_KEYS.",
    );
  }
  const refresher = parseRefresher(e, problems, warn);
  if (e.SHUTDOWN_DELAY_S >= e.SHUTDOWN_TIMEOUT_S)
    problems.push(
      `SHUTDOWN_DELAY_S (${e.SHUTDOWN_DELAY_S}) must be shorter than SHUTDOWN_TIMEOUT_S (${e.SHUTDOWN_TIMEOUT_S}), which bounds the whole shutdown.`,
    );
  if (problems.length > 0) throw new ConfigError(problems);

  // This machine's loopback names on the console's port (PORT, and APP_ORIGIN's when that is a loopback
  // origin): another server of this machine (localhost:8080) is another origin.
  const origin = new URL(appOrigin);
  const ports = new Set([String(e.PORT), ...(!isExposedHost(origin.hostname) && origin.port ? [origin.port] : [])]);
  const loopbackHosts = [...ports].flatMap((port) => ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${port}`));
  const allowedHosts = [...new Set([origin.host.toLowerCase(), ...e.ALLOWED_HOSTS.map((h) => h.toLowerCase()), ...loopbackHosts])];
  const store: Store = e.DATABASE_URL
    ? { kind: "postgres", url: e.DATABASE_URL }
    : { kind: "pglite", dataDir: e.DATA_DIR === MEMORY_DATA_DIR ? MEMORY_DATA_DIR : path.resolve(/*turbopackIgnore: true*/ e.DATA_DIR ?? DEFAULT_DATA_DIR) };

  return {
    env: e.NODE_ENV,
    /** The interface the console listens on (HOST). */
    host: e.HOST,
    /** Whether HOST is not a loopback address: others can reach the console, so nothing may rely on being alone. */
    exposed,
    appOrigin,
    /**
     * The Host names browsers reach the console at: APP_ORIGIN's, ALLOWED_HOSTS, and this machine's
     * loopback names on PORT. Every cookie-authenticated route and the emulator's admin surface refuse others.
     */
    allowedHosts,
    /** Proxies in front of the console that append to X-Forwarded-For (0: the address is the socket's). */
    trustedProxyHops: e.TRUSTED_PROXY,
    secureCookies: appOrigin.startsWith("https:"),
    upstream,
    clientId: clientId ?? "",
    clientSecret: clientSecret ?? "",
    /** The console app's signing secret. */
    signingSecret: signingSecret ?? "",
    /**
     * The apps whose Events API requests POST /api/events verifies: the console app's, and with the embedded
     * emulator its legacy app's too, whose installations the console also holds. Each with its app id and
     * name where the console knows them (the emulator's default apps), so /events can say which app a
     * url_verification, which names none, was for.
     */
    eventSigners,
    redirectUri: e.REDIRECT_URI ?? `${appOrigin}/oauth/callback`,
    /** Who may use the console (AUTH_MODE, ADMIN_USERS, SIGN_IN_REDIRECT_URI). */
    auth,
    /** BOT_SCOPES and USER_SCOPES; undefined when unset: the install asks for the app's own (lib/oauth/install-scopes.ts). */
    botScopes: e.BOT_SCOPES.length > 0 ? e.BOT_SCOPES : undefined,
    userScopes: e.USER_SCOPES.length > 0 ? e.USER_SCOPES : undefined,
    /** iron-session's password map: the highest id seals, every id unseals. */
    sessionPasswords,
    refreshWindowS: e.REFRESH_WINDOW_S,
    /**
     * How long after its first use the platform still answers a refresh token (with the same new pair). A
     * refresh result the console keeps for a pasted credential (the app configuration token) lives no longer.
     */
    refreshGraceS: e.REFRESH_GRACE_S ?? (upstream.kind === "emulator" ? e.EMULATOR_REFRESH_GRACE_S : DEFAULT_REFRESH_GRACE_S),
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    /** The background refresher (lib/installations/rotation/refresher.ts). */
    refresher,
    /** The token API for the app's own backend (GET /api/v1/installations/{team_id}/token). */
    tokenApi: { marginS: e.TOKEN_API_MARGIN_S, ratePerS: e.TOKEN_API_RATE_PER_S },
    webhookHosts: e.WEBHOOK_HOSTS.map((h) => h.toLowerCase()),
    redisUrl: e.REDIS_URL,
    /**
     * Where installations, tokens and pasted secrets live (lib/store): PostgreSQL when DATABASE_URL is set,
     * else the embedded PGlite under DATA_DIR (an absolute path, or memory://).
     */
    store,
    /**
     * ENCRYPTION_KEYS, newest first, as given (lib/store/sealing.ts derives the keys); empty when unset, and the
     * store's keys then derive from sessionPasswords.
     */
    encryptionKeys,
    logLevel: e.LOG_LEVEL,
    /** Operating a hosted instance (lib/ops): the metrics route's token (null: off) and the bounds of a graceful shutdown. */
    ops: { metricsToken: e.METRICS_TOKEN ?? null, shutdownDelayS: e.SHUTDOWN_DELAY_S, shutdownTimeoutS: e.SHUTDOWN_TIMEOUT_S },
    emulator: {
      /**
       * Where the embedded emulator keeps its state: DATA_DIR's emulator/ folder, whichever store holds the
       * console's records (with DATABASE_URL too: the emulator is this process's own); none (memory) with memory://.
       */
      dataDir: e.DATA_DIR === MEMORY_DATA_DIR ? undefined : path.join(path.resolve(/*turbopackIgnore: true*/ e.DATA_DIR ?? DEFAULT_DATA_DIR), "emulator"),
      users: e.EMULATOR_USERS,
      workspaces: e.EMULATOR_WORKSPACES,
      seed,
      refreshGraceS: e.EMULATOR_REFRESH_GRACE_S,
      cursorTtlS: e.EMULATOR_CURSOR_TTL_S,
      rateLimits: e.EMULATOR_RATE_LIMITS,
      /**
       * The admin surface's bearer token (EMULATOR_ADMIN_TOKEN, else one made for this process). Without one (a
       * loopback-only console), the console's own in-process calls still need a credential: one per process,
       * not per route bundle, as the embedded emulator is one per process too.
       */
      adminToken: e.EMULATOR_ADMIN_TOKEN ?? processSingleton("generatedEmulatorAdminToken", () => randomBytes(32).toString("base64url")),
      /** Whether EMULATOR_ADMIN_TOKEN was set, rather than made for this process: only a token someone set is sent to an emulator outside this process (PLATFORM_BASE_URL). */
      adminTokenConfigured: e.EMULATOR_ADMIN_TOKEN !== undefined,
    },
  };
}

/** The configuration, its type inferred from parseConfig (and so from lib/env.ts's declarations) rather than written beside it. */
export type Config = ReturnType<typeof parseConfig>;

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
