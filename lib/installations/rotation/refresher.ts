import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { callMethod, isPlatformError, maskToken, type PlatformError } from "@/lib/platform";
import { processSingleton } from "@/lib/process-singleton";
import { describeUpstream } from "@/lib/platform/platform-time";
import type { InstallationRecord } from "../record";
import { saveInstallation } from "../repository";
import { fromStoreInstallation } from "../store-mapping";
import { installationName } from "../universal/view";
import { withUpstreamInstance } from "../upstream-instance";
import type { ClaimableToken, ExpiringToken, Store, StoredInstallation } from "@/lib/store";
import { withFailedRefresh } from "./freshness";
import { LoadGate, watchEventLoopDelay } from "./load-gate";
import { refreshInstallationToken } from "./refresh";
import { getRotationRuntime, type RotationRuntime } from "./runtime";
import { plannedRefreshAt, type RefresherHealth, type RefresherView } from "../universal/refresh-schedule";

/**
 * The background refresher: keeps every rotating token alive whether or not anyone has the console open.
 * Every `intervalS` it reads the platform's time (a moved emulator clock included), asks the store for the
 * rotating tokens that expire within the horizon and the spread and that no instance has claimed, claims a
 * batch of those whose planned time (refresh-schedule.ts) has come (lib/store/refresh-claims.ts: across
 * instances each takes tokens the others did not), and refreshes them `concurrency` at a time; while a
 * backlog lasts (a moved clock makes every token due at once) the next batch follows at once. Each refresh
 * is refreshInstallationToken's: under the store's refresh lock for that token, so one instance works on a
 * token at a time and another that comes second finds the new pair (no platform call): the claim spreads the
 * work, the lock is what keeps a refresh token from being spent twice. Its intent in the store lets a
 * process that dies mid-refresh be finished by the next one. A refresh the platform rate limits waits its
 * Retry-After (with every token of that installation); one that fails for another passing reason (the
 * platform slow or down) is tried again after a backoff that doubles, well within the token's horizon; one
 * the platform refuses for good marks the installation as needing reinstall, with the reason, in its
 * timeline and state, and says so where REFRESH_ALERT_* points.
 */

/** What a pass reads of the configuration, and the sender of its webhook alert (none: the alert is logged as not sent). */
export type RefresherSettings = Pick<Config["refresher"], "horizonS" | "spreadS" | "alert"> &
  Partial<Pick<Config["refresher"], "concurrency">> & {
    sendAlert?: AlertWebhookSender | null;
    /** Who says how many refreshes may be under way (load-gate.ts); none: the process's own, which its loop's delay sets once the refresher started. */
    gate?: LoadGate;
  };

/**
 * Posts the needs-reinstall alert's text to REFRESH_ALERT_WEBHOOK_URL, or throws saying why it was not
 * delivered. Given at start-up (instrumentation-node.ts hands lib/webhooks' sender): rotation sends through
 * it without importing what sends webhooks.
 */
export type AlertWebhookSender = (url: string, text: string, timeoutMs: number) => Promise<void>;

/** Refreshes at once when the settings name none (REFRESHER_CONCURRENCY): a moved clock makes every token due together. */
const DEFAULT_CONCURRENCY = 4;
/** A pass claims this many due tokens per refresh it may make at once; the next pass (at once, while a backlog lasts) takes more. */
const CLAIMS_PER_SLOT = 8;
/** It reads this many candidates per claim: some are not yet due (the spread) or back off here. */
const CANDIDATES_PER_CLAIM = 4;
/** How long a claim keeps other instances away (the database's clock): far longer than a batch takes, and than a Retry-After. */
const CLAIM_LEASE_MS = 120_000;
/** Between two passes while a backlog drains: a turn of the event loop for whatever else waits. */
const BACKLOG_PAUSE_MS = 10;
const FIRST_BACKOFF_MS = 15_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const BY = "the background refresher";
/**
 * The event loop's delay (99th percentile over a window, beyond its timer's resolution) above which the
 * refresher makes room for the console's requests: /api/health should answer within 100 ms at its 99th
 * percentile, and a loop that is this late on its timers is late on their answers too.
 */
const LAG_TARGET_MS = 20;
/** How often the loop's delay is read and the refreshes allowed set: often enough to follow a backlog's passes, each a few seconds. */
const LAG_WINDOW_MS = 500;
/** However late the loop, a quarter of REFRESHER_CONCURRENCY stays allowed: a backlog keeps draining. */
const LEAST_SHARE = 4;

interface Backoff {
  failures: number;
  /** Server time (Date.now) before which the token is not tried again. */
  retryAt: number;
}

interface RefresherState {
  health: RefresherHealth;
  backoff: Map<string, Backoff>;
  /**
   * Per installation (a workspace and an app: the platform's unit of rate limits for oauth.v2.access), the
   * server time before which none of its tokens is asked for again: its Retry-After.
   */
  rateLimited: Map<string, number>;
  timer: NodeJS.Timeout | null;
  stopped: boolean;
  /** Which start the running loop belongs to: a stop then a start leaves one loop, not two. */
  generation: number;
  running: Promise<PassSummary> | null;
  /** The webhook alert's sender, given at start (startRefresher). */
  sendAlert: AlertWebhookSender | null;
  /** How many refreshes may be under way now (load-gate.ts), made for the concurrency of the settings. */
  gate: LoadGate | null;
  /** Stops reading the event loop's delay (started with the refresher). */
  stopWatching: (() => void) | null;
}

function newState(): RefresherState {
  return {
    health: { state: "starting", lastRunAt: null, lastRunMs: null, lastError: null, refreshed: 0, failed: 0, needsReinstall: 0, backingOff: 0 },
    backoff: new Map(),
    rateLimited: new Map(),
    timer: null,
    stopped: false,
    generation: 0,
    running: null,
    sendAlert: null,
    gate: null,
    stopWatching: null,
  };
}

/** One refresher per process (each route bundle loads this module; the state is the process's). */
const state = (): RefresherState => processSingleton("backgroundRefresher", newState);

const tokenKey = (t: ExpiringToken) => `${t.installationId}:${t.kind}:${t.userId ?? ""}`;

export interface PassSummary {
  /** Tokens whose planned refresh had come, that this pass claimed. */
  due: number;
  refreshed: number;
  /** Another instance (or a request) had refreshed it first: nothing was asked of the platform. */
  alreadyFresh: number;
  failed: number;
  needsReinstall: number;
  /** More due tokens may be waiting (a full batch was read and some claimed): the next pass comes at once. */
  backlog: boolean;
}

const emptySummary = (): PassSummary => ({ due: 0, refreshed: 0, alreadyFresh: 0, failed: 0, needsReinstall: 0, backlog: false });

/** At most this many tokens' backoffs and installations' Retry-Afters are kept, the oldest set dropped first. */
const MAX_WAITS = 100_000;

/**
 * Forgets the waits that are over: a Retry-After that has passed, a backoff whose retry time passed a whole
 * longest backoff ago (its token was refreshed elsewhere, or is gone: a due one would have been tried). Then
 * keeps at most MAX_WAITS of each, so neither grows with every token that ever failed.
 * @internal exported for its test
 */
export function pruneWaits(waits: { backoff: Map<string, { retryAt: number }>; rateLimited: Map<string, number> }, serverNow: number): void {
  for (const [id, until] of waits.rateLimited) if (until <= serverNow) waits.rateLimited.delete(id);
  for (const [key, backoff] of waits.backoff) if (backoff.retryAt + MAX_BACKOFF_MS <= serverNow) waits.backoff.delete(key);
  for (const map of [waits.rateLimited, waits.backoff] as Map<string, unknown>[]) {
    for (const key of map.keys()) {
      if (map.size <= MAX_WAITS) break;
      map.delete(key);
    }
  }
}

/** The process's gate for this bound (REFRESHER_CONCURRENCY): a new bound, a new gate. */
function processGate(concurrency: number): LoadGate {
  const s = state();
  if (s.gate?.bound !== concurrency) s.gate = new LoadGate({ bound: concurrency, floor: Math.ceil(concurrency / LEAST_SHARE), targetMs: LAG_TARGET_MS });
  return s.gate;
}

/** Whether this process leaves the token alone for now: its own backoff, or its installation's Retry-After. */
function waiting(token: ExpiringToken, serverNow: number): boolean {
  const s = state();
  return (s.backoff.get(tokenKey(token))?.retryAt ?? 0) > serverNow || (s.rateLimited.get(token.installationId) ?? 0) > serverNow;
}

/**
 * One pass: a batch of the tokens due now claimed (refresh-claims.ts: across instances, each takes tokens
 * the others did not) and refreshed, `concurrency` at a time, which bounds what this instance asks of the
 * platform and of the store while a backlog drains. `now` is the platform's time. Never throws for one
 * token's failure; a store that cannot be read fails the pass (the next one tries again).
 */
export async function refreshDueTokens(runtime: RotationRuntime, settings: RefresherSettings): Promise<PassSummary> {
  const summary = emptySummary();
  const concurrency = settings.concurrency ?? DEFAULT_CONCURRENCY;
  const gate = settings.gate ?? processGate(concurrency);
  const batch = concurrency * CLAIMS_PER_SLOT;
  // The platform's time, asked afresh: a clock moved elsewhere (the emulator's admin surface) is read from its answer.
  await describeUpstream(runtime, true);
  const store = await runtime.store();
  const now = runtime.now();
  pruneWaits(state(), Date.now());
  const limit = batch * CANDIDATES_PER_CLAIM;
  const candidates = await store.refreshClaims.unclaimedExpiringBefore(now + (settings.horizonS + settings.spreadS) * 1000, limit);
  const serverNow = Date.now();
  const wanted = candidates
    .filter((t) => plannedRefreshAt(t, t.expiresAt, settings.horizonS, settings.spreadS) <= now && !waiting(t, serverNow))
    .slice(0, batch);
  const claimed = await store.refreshClaims.claim(
    wanted.map((t) => t.tokenId),
    CLAIM_LEASE_MS,
  );
  const due = wanted.filter((t) => claimed.has(t.tokenId));
  summary.due = due.length;
  // Due tokens were found, and either the read was full (more may be due behind it) or another instance took
  // some of them first (it claims at this moment: read again past its claims). None due: the interval waits.
  summary.backlog = wanted.length > 0 && (candidates.length === limit || due.length < wanted.length);
  // Claims given back at the end; those of failed refreshes kept until this instance tries them again.
  const release = new Map(claimed);
  const waits: ClaimableToken[] = [];
  try {
    // Each installation read and checked once, by the first worker that takes one of its tokens; its other
    // tokens wait for that check (the workers read different installations at once, none in a line before them).
    const checks = new Map<string, Promise<StoredInstallation | null | "replaced">>();
    const checked = (id: string) => {
      let check = checks.get(id);
      if (!check) checks.set(id, (check = checkUpstream(id, runtime)));
      return check;
    };
    let next = 0;
    // Each token takes a turn of the gate: at most `concurrency` under way, fewer while the event loop lags.
    const worker = async () => {
      for (;;) {
        await gate.acquire();
        try {
          if (next >= due.length) return;
          const token = due[next++]!;
          const read = await checked(token.installationId);
          if (read === "replaced") {
            summary.needsReinstall++;
            continue;
          }
          const outcome = await refreshOne(token, read, runtime, settings);
          summary[outcome]++;
          if (outcome === "failed") {
            release.delete(token.tokenId);
            waits.push(token);
          }
        } finally {
          gate.release();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
  } finally {
    // A refreshed token is not due for hours; given back, a clock moved again finds it due at once. A release
    // that fails leaves the lease to run out.
    await store.refreshClaims.release(release).catch(() => {});
    await holdClaims(store, waits, claimed).catch(() => {});
  }
  return summary;
}

/** Keeps the claims of tokens that wait (a backoff, a Retry-After) until this instance may try them again, to the second. */
async function holdClaims(store: Store, waits: readonly ClaimableToken[], leases: ReadonlyMap<number, number>): Promise<void> {
  const serverNow = Date.now();
  const bySeconds = new Map<number, Map<number, number>>();
  for (const token of waits) {
    const s = state();
    const until = Math.max(s.backoff.get(tokenKey(token))?.retryAt ?? 0, s.rateLimited.get(token.installationId) ?? 0);
    const seconds = Math.max(0, Math.ceil((until - serverNow) / 1000));
    const held = bySeconds.get(seconds) ?? new Map<number, number>();
    bySeconds.set(seconds, held.set(token.tokenId, leases.get(token.tokenId)!));
  }
  for (const [seconds, ids] of bySeconds) await store.refreshClaims.release(ids, seconds * 1000);
}

/**
 * Whether this installation was made on an emulator since reset or replaced: its refresh tokens mean nothing
 * there, so none is refreshed, and it says so once ("replaced"). A record made before the console kept the
 * instance takes the current one. Otherwise answers the installation as read (the read its tokens' refreshes
 * start from; under the lock each reads it again), or null when it is gone.
 */
async function checkUpstream(id: string, runtime: RotationRuntime): Promise<StoredInstallation | null | "replaced"> {
  const stored = await (await runtime.store()).installations.get(id, { fresh: true });
  if (!stored) return null;
  const read = fromStoreInstallation(stored);
  const checked = await withUpstreamInstance(read, (fresh) => describeUpstream(runtime, fresh), BY, runtime.now());
  if (checked === read) return stored;
  await saveInstallation(checked, { readAs: read });
  return checked.state !== "active" ? "replaced" : stored;
}

async function refreshOne(
  token: ExpiringToken,
  stored: StoredInstallation | null,
  runtime: RotationRuntime,
  settings: RefresherSettings,
): Promise<Exclude<keyof PassSummary, "due" | "backlog">> {
  const key = tokenKey(token);
  // Gone, or needing a person: nothing to back off from any more.
  if (!stored || stored.state !== "active") {
    state().backoff.delete(key);
    return "alreadyFresh";
  }
  // The record acts with the token due: the bot token, or this person's user token.
  const record = fromStoreInstallation(stored, [], false, { holder: token.kind === "user" ? (token.userId ?? "") : undefined });
  const now = runtime.now();
  const current = record[token.kind];
  if (
    !current?.refreshToken ||
    current.revoked ||
    current.expiresAt === undefined ||
    plannedRefreshAt(token, current.expiresAt, settings.horizonS, settings.spreadS) > now
  ) {
    state().backoff.delete(key);
    return "alreadyFresh";
  }
  try {
    const outcome = await refreshInstallationToken(record, token.kind, runtime, { reason: "scheduled", by: BY });
    state().backoff.delete(key);
    if (outcome.outcome === "needs_reinstall") {
      const saved = await saveInstallation(outcome.installation);
      await announceNeedsReinstall(saved, token, runtime, settings);
      return "needsReinstall";
    }
    // Under the lock it stored its own pair (its timeline entry comes back with it), or found the one another stored.
    return outcome.installation.timeline?.[0]?.type === "refreshed" ? "refreshed" : "alreadyFresh";
  } catch (error) {
    const code = error instanceof Error && "code" in error ? String((error as { code: unknown }).code) : "unknown";
    const retryAfterS = rateLimitedFor(error);
    if (retryAfterS !== undefined) {
      // The platform's own word on when to ask again, for every token of this workspace and app: no doubling,
      // and no "refresh failed" in the timeline (the refresh token was not spent; it is asked for later).
      state().rateLimited.set(token.installationId, Date.now() + retryAfterS * 1000);
      logger.info({ installation: token.installationId, kind: token.kind, retryAfterS }, "background refresh rate limited: asking again after Retry-After");
      return "failed";
    }
    const previous = state().backoff.get(key);
    const failures = (previous?.failures ?? 0) + 1;
    state().backoff.set(key, { failures, retryAt: Date.now() + Math.min(FIRST_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS) });
    logger.warn({ installation: token.installationId, kind: token.kind, err: code, failures }, "background refresh failed: trying again later");
    // The timeline says so once per run of failures, not at every retry.
    if (!previous && !isConsoleError(error, "refresh_in_progress")) {
      const failed = withFailedRefresh(record, token.kind, error, BY, runtime.now());
      if (failed !== record) await saveInstallation(failed).catch(() => {});
    }
    return "failed";
  }
}

/** The seconds the platform said to wait (HTTP 429 ratelimited, its Retry-After; 1 when it gave none), else undefined. */
function rateLimitedFor(error: unknown): number | undefined {
  if (!isPlatformError(error, "ratelimited") && !(isPlatformError(error) && error.result.status === 429)) return undefined;
  return Math.max(1, (error as PlatformError).result.retryAfterS ?? 1);
}

/**
 * Tells a channel that an installation needs a person (REFRESH_ALERT_WEBHOOK_URL through the webhook
 * proxy's checks, or REFRESH_ALERT_INSTALLATION's bot with chat.postMessage). Names the workspace, the app
 * and the reason, never a token. A failure to tell is logged; the installation's state says it anyway.
 */
async function announceNeedsReinstall(installation: InstallationRecord, token: ExpiringToken, runtime: RotationRuntime, settings: RefresherSettings) {
  const alert = settings.alert;
  if (!alert) return;
  // Said once: when the bot token's refusal (in the same pass) ended the installation, a person's token refused
  // beside it adds nothing, and "the other tokens still work" would be untrue.
  const now = await (await runtime.store()).installations.get(installation.id, { fresh: true });
  if (token.kind === "user" && token.userId && now?.state === "needs_reinstall") return;
  const app = { key: installation.appKey, id: installation.appId ?? null, name: installation.appName ?? null };
  const name = installationName(installation.team, app);
  const text =
    installation.state === "needs_reinstall"
      ? `:warning: ${name} needs to be installed again: the platform refused its ${token.kind} token's refresh (${installation.problem ?? "needs_reinstall"}). Open Switchboard and use Reinstall.`
      : `:warning: In ${name}, the platform refused the refresh of ${token.userId ?? "a person"}'s user token: they need to install the app again to get a new one. The installation's other tokens still work.`;
  try {
    if (alert.kind === "webhook") {
      const send = settings.sendAlert;
      if (!send) throw new Error("no webhook sender was given to the refresher at start");
      await send(alert.url, text, runtime.timeoutMs);
      return;
    }
    const poster = await (await runtime.store()).installations.get(alert.installationId);
    const bot = poster?.bot;
    if (!bot) throw new Error("REFRESH_ALERT_INSTALLATION has no bot token");
    const result = await callMethod({
      baseUrl: runtime.baseUrl,
      token: bot.value,
      method: "chat.postMessage",
      params: { channel: alert.channel, text },
      timeoutMs: runtime.timeoutMs,
      ...(runtime.transport ? { transport: runtime.transport } : {}),
    });
    if (!result.ok) throw new Error(`chat.postMessage answered ${JSON.stringify(result.body).slice(0, 100)} with ${maskToken(bot.value)}`);
  } catch (error) {
    logger.warn({ installation: installation.id, err: error instanceof Error ? error.message : "unknown" }, "the needs-reinstall alert was not posted");
  }
}

async function pass(): Promise<PassSummary> {
  const { health } = state();
  const started = Date.now();
  try {
    const summary = await refreshDueTokens(getRotationRuntime(), { ...getConfig().refresher, sendAlert: state().sendAlert });
    health.refreshed += summary.refreshed;
    health.failed += summary.failed;
    health.needsReinstall += summary.needsReinstall;
    health.state = "healthy";
    health.lastError = null;
    metrics().refresherLastSuccess.setToCurrentTime();
    if (summary.due > 0) logger.info({ ...summary }, "background refresh pass");
    return summary;
  } catch (error) {
    health.state = "failing";
    health.lastError =
      error instanceof Error ? (("code" in error && typeof error.code === "string" ? `${error.code}: ` : "") + error.message).slice(0, 200) : "unknown";
    logger.warn({ err: health.lastError }, "background refresh pass failed");
    return emptySummary();
  } finally {
    health.lastRunAt = Date.now();
    health.lastRunMs = Date.now() - started;
    const serverNow = Date.now();
    health.backingOff = [...state().backoff.values()].filter((b) => b.retryAt > serverNow).length;
  }
}

/** Runs one pass now (or joins the one running): what a test, or a clock move, asks for. */
export function runRefresherPass(): Promise<PassSummary> {
  const s = state();
  s.running ??= pass().finally(() => (s.running = null));
  return s.running;
}

/**
 * Starts the refresher of this process (instrumentation-node.ts), once, with the sender of its webhook alert;
 * with BACKGROUND_REFRESH off, nothing (a pass asked for, by a clock move, still alerts through the sender).
 */
export function startRefresher({ sendAlert }: { sendAlert: AlertWebhookSender }): void {
  const { refresher } = getConfig();
  const s = state();
  s.sendAlert = sendAlert;
  if (!refresher.enabled || s.timer) return;
  s.stopped = false;
  const generation = ++s.generation;
  // The event loop's delay sets how many refreshes may be under way (load-gate.ts), said in the metrics.
  const gate = processGate(refresher.concurrency);
  metrics().refresherAllowed.set(gate.allowed);
  s.stopWatching ??= watchEventLoopDelay(LAG_WINDOW_MS, (lagP99Ms) => {
    gate.adjust(lagP99Ms);
    metrics().refresherAllowed.set(gate.allowed);
  });
  const loop = (summary?: PassSummary) => {
    if (s.stopped || s.generation !== generation) return;
    // While a backlog lasts (a moved clock, an instance that was down) the next batch comes at once; the
    // bound on what one pass does at a time is what leaves room for the console's own requests.
    const delayMs = summary?.backlog ? BACKLOG_PAUSE_MS : refresher.intervalS * 1000;
    s.timer = setTimeout(() => void runRefresherPass().then(loop, () => loop()), delayMs);
    s.timer.unref();
  };
  // The first pass soon after start: tokens that came due while no instance ran.
  s.timer = setTimeout(() => void runRefresherPass().then(loop, () => loop()), 2_000);
  s.timer.unref();
}

/** Stops it (graceful shutdown): no new pass; the one running finishes. */
export async function stopRefresher(): Promise<void> {
  const s = state();
  s.stopped = true;
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  s.stopWatching?.();
  s.stopWatching = null;
  // It starts nothing more: none of its room is left (the gauge reads "0 while it is off").
  metrics().refresherAllowed.set(0);
  await s.running?.catch(() => {});
}

/** What the dashboard shows of it. */
export function refresherView(): RefresherView {
  const { refresher } = getConfig();
  return {
    enabled: refresher.enabled,
    horizonS: refresher.horizonS,
    spreadS: refresher.spreadS,
    intervalS: refresher.intervalS,
    health: refresher.enabled ? { ...state().health } : null,
  };
}
