import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { isConsoleError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { callMethod, maskToken } from "@/lib/platform";
import { processSingleton } from "@/lib/process-singleton";
import { describeUpstream } from "@/lib/platform/platform-time";
import type { InstallationRecord } from "../record";
import { saveInstallation } from "../repository";
import { fromStoreInstallation } from "../store-mapping";
import { installationName } from "../universal/view";
import { withUpstreamInstance } from "../upstream-instance";
import type { ExpiringToken } from "@/lib/store";
import { withFailedRefresh } from "./freshness";
import { refreshInstallationToken } from "./refresh";
import { getRotationRuntime, type RotationRuntime } from "./runtime";
import { plannedRefreshAt, type RefresherHealth, type RefresherView } from "../universal/refresh-schedule";

/**
 * The background refresher: keeps every rotating token alive whether or not anyone has the console open.
 * Every `intervalS` it reads the platform's time (a moved emulator clock included), asks the store for the
 * rotating tokens that expire within the horizon and the spread, and refreshes each whose planned time
 * (schedule.ts) has come, a few at a time. Each refresh is refreshInstallationToken's: under the store's
 * refresh lock for that token, so one instance works on a token at a time and another that comes second
 * finds the new pair (no platform call); its intent in the store lets a process that dies mid-refresh be
 * finished by the next one. A refresh that fails for a passing reason (the platform slow, rate limited or
 * down) is tried again after a backoff that doubles, well within the token's horizon; one the platform
 * refuses for good marks the installation as needing reinstall, with the reason, in its timeline and state,
 * and says so where REFRESH_ALERT_* points.
 */

/** What a pass reads of the configuration, and the sender of its webhook alert (none: the alert is logged as not sent). */
export type RefresherSettings = Pick<Config["refresher"], "horizonS" | "spreadS" | "alert"> & { sendAlert?: AlertWebhookSender | null };

/**
 * Posts the needs-reinstall alert's text to REFRESH_ALERT_WEBHOOK_URL, or throws saying why it was not
 * delivered. Given at start-up (instrumentation-node.ts hands lib/webhooks' sender): rotation sends through
 * it without importing what sends webhooks.
 */
export type AlertWebhookSender = (url: string, text: string, timeoutMs: number) => Promise<void>;

/** Refreshes at once, at most: a clock moved by 13 hours makes every token due together. */
const CONCURRENCY = 4;
/** A pass looks at this many tokens at most, soonest first; the next pass takes the rest. */
const BATCH = 500;
const FIRST_BACKOFF_MS = 15_000;
const MAX_BACKOFF_MS = 10 * 60_000;
const BY = "the background refresher";

interface Backoff {
  failures: number;
  /** Server time (Date.now) before which the token is not tried again. */
  retryAt: number;
}

interface RefresherState {
  health: RefresherHealth;
  backoff: Map<string, Backoff>;
  timer: NodeJS.Timeout | null;
  stopped: boolean;
  /** Which start the running loop belongs to: a stop then a start leaves one loop, not two. */
  generation: number;
  running: Promise<PassSummary> | null;
  /** The webhook alert's sender, given at start (startRefresher). */
  sendAlert: AlertWebhookSender | null;
}

function newState(): RefresherState {
  return {
    health: { state: "starting", lastRunAt: null, lastRunMs: null, lastError: null, refreshed: 0, failed: 0, needsReinstall: 0, backingOff: 0 },
    backoff: new Map(),
    timer: null,
    stopped: false,
    generation: 0,
    running: null,
    sendAlert: null,
  };
}

/** One refresher per process (each route bundle loads this module; the state is the process's). */
const state = (): RefresherState => processSingleton("backgroundRefresher", newState);

const tokenKey = (t: ExpiringToken) => `${t.installationId}:${t.kind}:${t.userId ?? ""}`;

export interface PassSummary {
  /** Tokens whose planned refresh had come. */
  due: number;
  refreshed: number;
  /** Another instance (or a request) had refreshed it first: nothing was asked of the platform. */
  alreadyFresh: number;
  failed: number;
  needsReinstall: number;
}

/**
 * One pass: every token due now refreshed, CONCURRENCY at a time. `now` is the platform's time. Never
 * throws for one token's failure; a store that cannot be read fails the pass (the next one tries again).
 */
export async function refreshDueTokens(runtime: RotationRuntime, settings: RefresherSettings): Promise<PassSummary> {
  const summary: PassSummary = { due: 0, refreshed: 0, alreadyFresh: 0, failed: 0, needsReinstall: 0 };
  // The platform's time, asked afresh: a clock moved elsewhere (the emulator's admin surface) is read from its answer.
  await describeUpstream(runtime, true);
  const store = await runtime.store();
  const now = runtime.now();
  const candidates = await store.installations.tokensExpiringBefore(now + (settings.horizonS + settings.spreadS) * 1000, BATCH);
  const { backoff } = state();
  const due = candidates.filter(
    (t) => plannedRefreshAt(t, t.expiresAt, settings.horizonS, settings.spreadS) <= now && (backoff.get(tokenKey(t))?.retryAt ?? 0) <= Date.now(),
  );
  summary.due = due.length;
  const replaced = await noticeReplacedUpstream(due, runtime);
  summary.needsReinstall = due.filter((t) => replaced.has(t.installationId)).length;
  due.splice(0, due.length, ...due.filter((t) => !replaced.has(t.installationId)));
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const token = due[next++]!;
      const outcome = await refreshOne(token, runtime, settings);
      summary[outcome]++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  return summary;
}

/**
 * The installations of these tokens that were made on an emulator since reset or replaced: their refresh
 * tokens mean nothing there, so none is refreshed, and each says so once (one check per installation, before
 * its tokens are taken in parallel). A record made before the console kept the instance takes the current one.
 */
async function noticeReplacedUpstream(due: readonly ExpiringToken[], runtime: RotationRuntime): Promise<Set<string>> {
  const store = await runtime.store();
  const replaced = new Set<string>();
  for (const id of new Set(due.map((t) => t.installationId))) {
    const stored = await store.installations.get(id, { fresh: true });
    if (!stored) continue;
    const read = fromStoreInstallation(stored);
    const checked = await withUpstreamInstance(read, (fresh) => describeUpstream(runtime, fresh), BY, runtime.now());
    if (checked === read) continue;
    await saveInstallation(checked, { readAs: read });
    if (checked.state !== "active") replaced.add(id);
  }
  return replaced;
}

async function refreshOne(token: ExpiringToken, runtime: RotationRuntime, settings: RefresherSettings): Promise<Exclude<keyof PassSummary, "due">> {
  const key = tokenKey(token);
  const store = await runtime.store();
  const stored = await store.installations.get(token.installationId, { fresh: true });
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
    const previous = state().backoff.get(key);
    const failures = (previous?.failures ?? 0) + 1;
    state().backoff.set(key, { failures, retryAt: Date.now() + Math.min(FIRST_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS) });
    const code = error instanceof Error && "code" in error ? String((error as { code: unknown }).code) : "unknown";
    logger.warn({ installation: token.installationId, kind: token.kind, err: code, failures }, "background refresh failed: trying again later");
    // The timeline says so once per run of failures, not at every retry.
    if (!previous && !isConsoleError(error, "refresh_in_progress")) {
      const failed = withFailedRefresh(record, token.kind, error, BY, runtime.now());
      if (failed !== record) await saveInstallation(failed).catch(() => {});
    }
    return "failed";
  }
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
    return { due: 0, refreshed: 0, alreadyFresh: 0, failed: 0, needsReinstall: 0 };
  } finally {
    health.lastRunAt = Date.now();
    health.lastRunMs = Date.now() - started;
    health.backingOff = [...state().backoff.values()].filter((b) => b.retryAt > Date.now()).length;
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
  const loop = () => {
    if (s.stopped || s.generation !== generation) return;
    s.timer = setTimeout(() => void runRefresherPass().finally(loop), refresher.intervalS * 1000);
    s.timer.unref();
  };
  // The first pass soon after start: tokens that came due while no instance ran.
  s.timer = setTimeout(() => void runRefresherPass().finally(loop), 2_000);
  s.timer.unref();
}

/** Stops it (graceful shutdown): no new pass; the one running finishes. */
export async function stopRefresher(): Promise<void> {
  const s = state();
  s.stopped = true;
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
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
