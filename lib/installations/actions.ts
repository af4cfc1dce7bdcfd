import "server-only";
import { getConfig, type Upstream } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import {
  callMethod,
  exchangeLongLivedToken,
  isPlatformError,
  maskToken,
  platformErrorCode,
  type HttpMethod,
  type ParamValue,
  type PlatformCallResult,
} from "@/lib/platform";
import { lookupAppName } from "./app-name";
import {
  callWithFreshToken,
  needsReinstallError,
  reconcileWithKeptRefreshes,
  refreshInstallationToken,
  withFailedRefresh,
  withNoticedExpiry,
} from "@/lib/rotation/freshness";
import {
  installationFromGrant,
  installationIdFor,
  requireLongLivedToken,
  requireToken,
  tokenFingerprint,
  toInstallationView,
  type InstallationRecord,
  type StoredToken,
} from "./record";
import type { AppKey, InstallationView, TokenIdentity } from "./view";
import { findInstallation, listInstallations, MAX_INSTALLATIONS, removeInstallation, requireInstallation, saveInstallation } from "./store";
import { describeUpstream, toPlatformClockView, type PlatformClockView } from "@/lib/platform-clock/platform-time";
import { getRotationRuntime, type RotationRuntime } from "@/lib/rotation/runtime";
import { beforeCookiesSent } from "@/lib/session/sealed-cookie";
import { prependEntry, timelineCause, timelineErrorCode, type TimelineEntry } from "./timeline";
import { TOKEN_KINDS, type TokenKind } from "./token-kind";
import { verdictForError, type DeadTokenVerdict } from "./lifecycle";

/**
 * This request's live installations, tokens included (an uninstalled one, kept for its timeline, is not
 * among them). Server-only: hand the browser toInstallationView().
 */
export async function getSessionInstallations(): Promise<InstallationRecord[]> {
  return (await listInstallations()).filter((i) => !i.uninstalledAt);
}

export async function getSessionInstallationViews(): Promise<InstallationView[]> {
  return (await getSessionInstallations()).map(toInstallationView);
}

/** What GET /api/session answers: the console's pages read the session through it (lib/swr/use-session.ts). */
export interface ConsoleSession {
  ok: true;
  upstream: Upstream;
  installations: InstallationView[];
  maxInstallations: number;
  /** Tokens expiring within this many seconds are refreshed before their next use. */
  refreshWindowS: number;
  /**
   * The platform's time when the server answered (its clock plus the skew read from the upstream's answers,
   * lib/platform/platform-clock.ts): countdowns and token states correct the browser's clock by it.
   */
  serverTime: number;
  /** What the upstream said it is (GET {base}/.well-known/emulator): an emulator's clock can be moved. */
  platformClock: PlatformClockView;
}

/**
 * GET /api/session: every installation this browser holds, the uninstalled ones too (their timeline and
 * Reinstall), with a rotating token the console's clock finds expired noted in its timeline once.
 */
export async function getConsoleSession(by = "GET /api/session"): Promise<ConsoleSession> {
  const { upstream, refreshWindowS } = getConfig();
  // Asks the upstream again when it has said nothing for a while, so a clock moved elsewhere shows.
  const platformClock = toPlatformClockView(await describeUpstream());
  const now = getRotationRuntime().now();
  const views: InstallationView[] = [];
  for (const installation of await listInstallations()) {
    let noticed = installation;
    if (noticed.state === "active") {
      for (const kind of TOKEN_KINDS) {
        const token = noticed[kind];
        if (token?.refreshToken && token.expiresAt !== undefined && token.expiresAt <= now) noticed = withNoticedExpiry(noticed, kind, "clock", by, now);
      }
    }
    if (noticed !== installation) noticed = await save(noticed);
    views.push(toInstallationView(noticed));
  }
  return { ok: true, upstream, installations: views, maxInstallations: MAX_INSTALLATIONS, refreshWindowS, serverTime: now, platformClock };
}

/**
 * What the token and installation action routes answer: POST /api/tokens/{test,refresh,revoke,exchange},
 * POST /api/installations/{id}/uninstall and DELETE /api/installations/{id}.
 */
export interface InstallationActionAnswer {
  /** The platform's `ok` for the actions that call it (test, revoke, uninstall); true otherwise. */
  ok: boolean;
  /** The platform's JSON (test, revoke, uninstall), or null when it answered none. */
  platform?: unknown;
  /** Test: whether the token was refreshed before auth.test. */
  refreshed?: boolean;
  /** Test: who the token is, as auth.test answered it; null when it failed. */
  identity?: TokenIdentity | null;
  /** The installation as the action left it, its timeline included (all but forget). */
  installation?: InstallationView;
  /** Forget: the id of the installation forgotten. */
  forgotten?: string;
}

/**
 * Every installation write goes through here: never puts back a refresh token the coordinator knows was
 * replaced. The cookie is brought up to date twice: when written, and again just before the response
 * carries it, since another request (another tab, another instance) may refresh the other token kind
 * while this one goes on, for example during a slow call after its own refresh. The browser keeps
 * whichever cookie arrives last.
 */
async function save(installation: InstallationRecord): Promise<InstallationRecord> {
  const runtime = getRotationRuntime();
  const reconciled = await reconcileWithKeptRefreshes(installation, runtime);
  await saveInstallation(reconciled);
  await beforeCookiesSent(`installation:${reconciled.id}`, async () => {
    // Forgotten or uninstalled later in this request: nothing to bring back.
    if (!(await findInstallation(reconciled.id))) return;
    const latest = await reconcileWithKeptRefreshes(reconciled, runtime);
    if (latest !== reconciled) await saveInstallation(latest);
  });
  return reconciled;
}

/**
 * Writes the installation only when its tokens or state differ from what this request read, so a slow
 * request that refreshed nothing never puts back tokens a newer request replaced.
 */
function persistIfChanged(original: InstallationRecord) {
  let last = tokenFingerprint(original);
  return async (updated: InstallationRecord) => {
    const next = tokenFingerprint(updated);
    if (next === last) return;
    last = next;
    await save(updated);
  };
}

export interface CallAsInstallationOptions {
  installationId: string;
  tokenKind: TokenKind;
  method: string;
  params?: Record<string, ParamValue>;
  httpMethod?: HttpMethod;
  /** A POST's arguments as a JSON body, instead of params. */
  json?: Record<string, unknown>;
  signal?: AbortSignal;
  /** What made the call, for the timeline ("GET /api/call/users.list"). */
  by?: string;
}

/**
 * The installation once an answer proved one of its tokens dead (lifecycle.ts, verdictForError):
 * that token revoked, or the whole installation needing reinstall, with `entry` in its timeline. A token
 * that alone died (its app has rotation) leaves the installation as it is while another of its tokens
 * still works or can be renewed; with none left, only a reinstall gives the console a token again.
 */
function withVerdict(
  installation: InstallationRecord,
  kind: TokenKind,
  verdict: DeadTokenVerdict | null,
  error: string,
  entry: TimelineEntry,
  nowMs: number,
): InstallationRecord {
  const token = installation[kind];
  let updated: InstallationRecord = { ...installation, timeline: prependEntry(installation.timeline, entry) };
  if (verdict === "token_revoked" && token && !token.revoked) updated = { ...updated, [kind]: { ...token, revoked: true }, updatedAt: nowMs };
  if (verdict === "token_revoked" && !TOKEN_KINDS.some((k) => isUsable(updated[k]))) verdict = "needs_reinstall";
  if (verdict === "needs_reinstall") updated = { ...updated, state: "needs_reinstall", problem: error, updatedAt: nowMs };
  return updated;
}

/** A token that works, or that its refresh token can replace. */
function isUsable(token: StoredToken | undefined): boolean {
  return Boolean(token && (!token.revoked || token.refreshToken));
}

/** A rotating token of the installation proves its app has rotation, which cannot be turned off (spec 3, row 9). */
function provesRotation(installation: InstallationRecord): boolean {
  return TOKEN_KINDS.some((k) => Boolean(installation[k]?.refreshToken));
}

/**
 * What a dead answer to the `kind` token proves, and nothing more. A long-lived token's death takes the
 * whole authorization with it only when its app has no rotation (spec 3, row 7, "usually"); when the
 * console cannot tell, the installation's other token says, with auth.test, the spec's way to confirm a
 * token no longer works: still working, only this token died; dead too, the authorization did. An answer
 * that proves nothing (a timeout) kills nothing that was not proven dead.
 */
async function judgeDeadToken(installation: InstallationRecord, kind: TokenKind, error: string, runtime: RotationRuntime): Promise<DeadTokenVerdict | null> {
  const token = installation[kind];
  if (!token) return null;
  const rotating = Boolean(token.refreshToken);
  const verdict = verdictForError(error, { rotating }, rotating || provesRotation(installation));
  if (verdict !== "needs_reinstall" || error === "account_inactive") return verdict;
  // Known dead already, and judged then: the answer confirms it and proves nothing of the others.
  if (token.revoked) return "token_revoked";
  const sibling = TOKEN_KINDS.map((k) => installation[k]).find((t) => t && t !== token && !t.revoked);
  if (!sibling) return verdict;
  return (await siblingIsDead(sibling, runtime)) ? "needs_reinstall" : "token_revoked";
}

async function siblingIsDead(sibling: StoredToken, runtime: RotationRuntime): Promise<boolean> {
  const probe = await callMethod({
    baseUrl: runtime.baseUrl,
    token: sibling.value,
    method: "auth.test",
    timeoutMs: runtime.timeoutMs,
    ...(runtime.transport ? { transport: runtime.transport } : {}),
  }).catch(() => null);
  if (!probe || probe.ok) return false;
  return verdictForError(answerError(probe), { rotating: Boolean(sibling.refreshToken) }) !== null;
}

/** The code of a failed answer: the platform's, or its HTTP status. */
function answerError(result: PlatformCallResult): string {
  return timelineErrorCode(platformErrorCode(result) ?? `http_${result.status}`);
}

/**
 * A Web API call with one of this session's tokens, kept fresh (see callWithFreshToken). An answer that
 * proves the token dead (token_revoked, invalid_auth, account_inactive, …) updates the installation at
 * once: that token revoked, or the installation needing reinstall, in its timeline too.
 */
export async function callAsInstallation(options: CallAsInstallationOptions): Promise<PlatformCallResult & { refreshed: boolean }> {
  const installation = await requireInstallation(options.installationId);
  const persist = persistIfChanged(installation);
  const runtime = getRotationRuntime();
  const { result, refreshed, installation: current } = await callWithFreshToken(installation, options, runtime, persist);
  const token = current[options.tokenKind];
  if (!result.ok && token) {
    const error = answerError(result);
    const verdict = await judgeDeadToken(current, options.tokenKind, error, runtime);
    if (verdict) {
      const now = runtime.now();
      const entry: TimelineEntry = {
        at: now,
        type: "found_dead",
        token: options.tokenKind,
        masked: maskToken(token.value),
        error,
        verdict,
        by: timelineCause(options.by ?? `${options.method} call`),
      };
      await persist(withVerdict(current, options.tokenKind, verdict, error, entry, now));
    }
  }
  // Not spread: the result's body and text are made when first read, and a copy would read them.
  return Object.assign(result, { refreshed });
}

/** auth.test's answer as the console's own shape; null for a failed one. */
function identityOf(result: PlatformCallResult): TokenIdentity | null {
  if (!result.ok || typeof result.body !== "object" || result.body === null) return null;
  const body = result.body as Record<string, unknown>;
  const text = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : null);
  return { team: text("team"), teamId: text("team_id"), user: text("user"), userId: text("user_id"), url: text("url") };
}

/**
 * POST /api/tokens/test: auth.test with one token (kept fresh), its answer in the timeline; an answer that
 * proves the token dead updates the installation at once.
 */
export async function testSessionToken(
  installationId: string,
  kind: TokenKind,
  by = "a test request",
): Promise<{ result: PlatformCallResult; refreshed: boolean; identity: TokenIdentity | null; installation: InstallationView }> {
  const installation = await requireInstallation(installationId);
  const persist = persistIfChanged(installation);
  const runtime = getRotationRuntime();
  const { result, refreshed, installation: current } = await callWithFreshToken(installation, { tokenKind: kind, method: "auth.test", by }, runtime, persist);
  const token = requireToken(current, kind);
  const now = runtime.now();
  const error = result.ok ? undefined : answerError(result);
  const verdict = error ? await judgeDeadToken(current, kind, error, runtime) : null;
  const entry: TimelineEntry = {
    at: now,
    type: "tested",
    token: kind,
    masked: maskToken(token.value),
    ok: result.ok,
    ...(error ? { error } : {}),
    ...(verdict ? { verdict } : {}),
    by: timelineCause(by),
  };
  const updated = withVerdict(current, kind, verdict, error ?? "", entry, now);
  await persist(updated);
  return { result, refreshed, identity: identityOf(result), installation: toInstallationView(updated) };
}

/**
 * POST /api/tokens/refresh: a refresh now, whatever the expiry (still single-flight). The new access
 * token also replaces one revoked from the console. A failure goes into the timeline before it answers.
 */
export async function refreshSessionToken(installationId: string, kind: TokenKind, by = "a refresh request"): Promise<InstallationView> {
  const installation = await requireInstallation(installationId);
  const persist = persistIfChanged(installation);
  const runtime = getRotationRuntime();
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  let outcome: Awaited<ReturnType<typeof refreshInstallationToken>>;
  try {
    outcome = await refreshInstallationToken(installation, kind, runtime, { reason: "requested", by });
  } catch (error) {
    await persist(withFailedRefresh(installation, kind, error, by, runtime.now())).catch(() => {});
    throw error;
  }
  await persist(outcome.installation);
  if (outcome.outcome === "needs_reinstall") throw outcome.error;
  return toInstallationView(outcome.installation);
}

/**
 * What a successful auth.revoke took: only that token when its app has rotation (spec 3, row 6), the whole
 * authorization when it has not (row 7). A rotating token says so by itself, or a rotating sibling; for a
 * long-lived token of an app the console cannot tell, its sibling answers auth.test: still working, only
 * the revoked token died. With no token left that works, only a reinstall helps either way.
 */
async function revokedScope(installation: InstallationRecord, kind: TokenKind, runtime: RotationRuntime): Promise<"token" | "installation"> {
  const token = installation[kind];
  if (token?.refreshToken) return "token";
  const others = TOKEN_KINDS.filter((k) => k !== kind).map((k) => installation[k]);
  const sibling = others.find((t) => t && !t.revoked);
  if (!sibling && !others.some((t) => t?.refreshToken)) return "installation";
  if (!sibling) return "token";
  if (sibling.refreshToken) return "token";
  return (await siblingIsDead(sibling, runtime)) ? "installation" : "token";
}

/**
 * auth.revoke on one access token. With rotation only that token dies (a rotating one's refresh gets a new
 * one); without, a long-lived token takes the whole authorization with it, so the installation then needs
 * reinstalling (revokedScope). Either way, and when the platform refuses, the timeline says so.
 */
export async function revokeSessionToken(
  installationId: string,
  kind: TokenKind,
  by = "a revoke request",
): Promise<{ result: PlatformCallResult; installation: InstallationView }> {
  const installation = await requireInstallation(installationId);
  if (installation.state === "needs_reinstall") throw needsReinstallError(installation);
  const token = requireToken(installation, kind);
  const runtime = getRotationRuntime();
  const result = await callMethod({ baseUrl: runtime.baseUrl, token: token.value, method: "auth.revoke", timeoutMs: runtime.timeoutMs });
  const now = runtime.now();
  const masked = maskToken(token.value);
  const cause = timelineCause(by);
  let updated: InstallationRecord;
  if (result.ok) {
    const scope = await revokedScope(installation, kind, runtime);
    const timeline = prependEntry(installation.timeline, { at: now, type: "revoked", token: kind, masked, scope, by: cause });
    updated =
      scope === "token"
        ? { ...installation, [kind]: { ...token, revoked: true }, timeline, updatedAt: now }
        : { ...installation, state: "needs_reinstall", problem: "token_revoked", timeline, updatedAt: now };
  } else {
    const error = answerError(result);
    const entry: TimelineEntry = { at: now, type: "revoke_failed", token: kind, masked, error, by: cause };
    updated = withVerdict(installation, kind, await judgeDeadToken(installation, kind, error, runtime), error, entry, now);
  }
  updated = await save(updated);
  return { result, installation: toInstallationView(updated) };
}

/** Every token of an installation, masked: what an uninstall kills. */
function maskedTokensOf(installation: InstallationRecord): string[] {
  return TOKEN_KINDS.flatMap((kind) => {
    const token = installation[kind];
    return token ? [maskToken(token.value), ...(token.refreshToken ? [maskToken(token.refreshToken)] : [])] : [];
  });
}

/**
 * POST /api/installations/{id}/uninstall: apps.uninstall revokes every token. The record stays, without
 * its tokens or webhook, as an uninstalled installation: its timeline says what happened, and Reinstall
 * brings it back (Forget removes it).
 */
export async function uninstallSessionInstallation(
  installationId: string,
  by = "an uninstall request",
): Promise<{ result: PlatformCallResult; installation: InstallationView }> {
  const installation = await requireInstallation(installationId);
  const kind: TokenKind = installation.bot ? "bot" : "user";
  const runtime = getRotationRuntime();
  const { clientId, clientSecret } = runtime.credentialsFor(installation.appKey);
  const persist = persistIfChanged(installation);
  const { result, installation: current } = await callWithFreshToken(
    installation,
    { tokenKind: kind, method: "apps.uninstall", params: { client_id: clientId, client_secret: clientSecret }, by },
    runtime,
    persist,
  );
  const now = runtime.now();
  const cause = timelineCause(by);
  if (result.ok) {
    const { bot: _bot, user: _user, incomingWebhook: _hook, ...rest } = current;
    const tombstone: InstallationRecord = {
      ...rest,
      state: "needs_reinstall",
      problem: "uninstalled",
      uninstalledAt: now,
      updatedAt: now,
      timeline: prependEntry(current.timeline, { at: now, type: "uninstalled", tokens: maskedTokensOf(current), by: cause }),
    };
    // Through save(): it replaces the write-back this request may have queued with the tokens still in it.
    return { result, installation: toInstallationView(await save(tombstone)) };
  }
  const error = answerError(result);
  const token = current[kind];
  const entry: TimelineEntry = { at: now, type: "uninstall_failed", error, by: cause };
  const updated = withVerdict(current, kind, token ? await judgeDeadToken(current, kind, error, runtime) : null, error, entry, now);
  await persist(updated);
  return { result, installation: toInstallationView(updated) };
}

/** DELETE /api/installations/{id}: forgets the installation in this browser; nothing changes upstream. */
export async function forgetSessionInstallation(installationId: string): Promise<void> {
  await requireInstallation(installationId);
  await removeInstallation(installationId);
}

/**
 * The exchange kills the original token for good, so the new pair must have somewhere to go before the
 * platform is asked: a full session only takes a pasted token of a team and app it already holds.
 */
async function assertRoomForPastedToken(token: string, appKey: AppKey): Promise<void> {
  const held = await listInstallations();
  if (held.length < MAX_INSTALLATIONS) return;
  const runtime = getRotationRuntime();
  const who = await callMethod({ baseUrl: runtime.baseUrl, token, method: "auth.test", timeoutMs: runtime.timeoutMs });
  const teamId = who.ok ? (who.body as { team_id?: unknown }).team_id : undefined;
  if (typeof teamId === "string" && held.some((i) => i.team.id === teamId && i.appKey === appKey)) return;
  throw new AppError("too_many_installations", {
    message: `This browser session already holds ${MAX_INSTALLATIONS} installations, the most its cookies can carry. Forget one before exchanging a token of another workspace: the pasted token was not exchanged.`,
  });
}

export type ExchangeRequest = { installationId: string; tokenKind: TokenKind } | { pastedToken: string; appKey: AppKey };

/**
 * oauth.v2.exchange: a long-lived token becomes an expiring one with a refresh token, and the original
 * stops working for good. Either an installation's own long-lived token, or a pasted one, which then
 * becomes (or joins) a tracked installation of this session. The exchange, or the platform's refusal of
 * an installation's token, goes into its timeline.
 */
export async function exchangeSessionToken(request: ExchangeRequest, by = "an exchange request"): Promise<InstallationView> {
  const runtime = getRotationRuntime();
  let previous: InstallationRecord | undefined;
  let token: string;
  let appKey: AppKey;
  let kind: TokenKind;
  if ("installationId" in request) {
    previous = await requireInstallation(request.installationId);
    if (previous.state === "needs_reinstall") throw needsReinstallError(previous);
    kind = request.tokenKind;
    token = requireLongLivedToken(previous, kind).value;
    appKey = previous.appKey;
  } else {
    token = request.pastedToken;
    appKey = request.appKey;
    kind = token.startsWith("xoxp-") ? "user" : "bot";
    await assertRoomForPastedToken(token, appKey);
  }
  const cause = timelineCause(by);
  let grant: Awaited<ReturnType<typeof exchangeLongLivedToken>>["grant"];
  try {
    ({ grant } = await exchangeLongLivedToken({ baseUrl: runtime.baseUrl, credentials: runtime.credentialsFor(appKey), token, timeoutMs: runtime.timeoutMs }));
  } catch (error) {
    if (previous && isPlatformError(error)) {
      const entry: TimelineEntry = {
        at: runtime.now(),
        type: "exchange_failed",
        token: kind,
        masked: maskToken(token),
        error: timelineErrorCode(error.platformCode),
        by: cause,
      };
      await save({ ...previous, timeline: prependEntry(previous.timeline, entry) }).catch(() => {});
    }
    throw error;
  }
  if (!previous && grant.team) {
    previous = await findInstallation(installationIdFor(grant.team.id, grant.appId, appKey));
  }
  if (!grant.team && !previous) throw new AppError("upstream_bad_answer", { message: "The platform's exchange answer named no team." });
  const appName = previous?.appName ? undefined : await lookupAppName(grant.appId ?? previous?.appId, runtime);
  const exchanged = installationFromGrant(grant, appKey, runtime.now(), previous, appName);
  const issued = exchanged[kind] ?? exchanged.bot ?? exchanged.user;
  // The tokens of an authorization that died stay dead: the record says which it no longer keeps.
  const dropped = previous ? TOKEN_KINDS.flatMap((k) => (previous?.[k] && !exchanged[k] ? [maskToken(previous[k].value)] : [])) : [];
  const now = runtime.now();
  const installation = await save({
    ...exchanged,
    timeline: prependEntry(exchanged.timeline, {
      at: now,
      type: "exchanged",
      token: kind,
      from: maskToken(token),
      to: maskToken(issued?.value ?? ""),
      ...(dropped.length > 0 ? { dropped } : {}),
      by: cause,
    }),
  });
  return toInstallationView(installation);
}
