/**
 * The development-only admin surface under {base}/admin: JSON in, JSON out. The console's pages and
 * the tests use it to read the app credentials, move time, look at every token, switch rate limits
 * and faults, issue app configuration tokens, and reset. Token values and webhook URLs are masked in
 * everything it shows, except the app credentials of GET /admin/apps and the configuration token pair
 * that POST /admin/config-tokens issues (the one time it is shown, as on the platform's page), and the
 * tokens of the installations POST /admin/installations/seed makes (as oauth.v2.access hands them over).
 */
import { z } from "zod";
import { describeApp, upsertApp } from "../apps/registry";
import type { AdjustableClock } from "../core/clock";
import { configTokenAnswer, describeConfigTokens, issueConfigTokens } from "../tokens/config-tokens";
import { WebApiError, jsonResponse } from "../core/errors";
import { MAX_JSON_DEPTH, parseJsonWithin } from "../core/json-depth";
import type { Router } from "../core/router";
import { resetState } from "../store";
import { displayedTokenState, maskToken } from "../tokens/tokens";
import type { EmulatorState, RequestContext, ResolvedOptions } from "../types";
import { describeDeliveries } from "../events/deliveries";
import { describeAssistantThreads, describeUsergroups } from "./workspace-contents";
import { describeVerification, verifyRequestUrl } from "../events/url-verification";
import { dispatchChannelArchive } from "../events/workspace-change-events";
import { METHODS } from "../web-api/methods";
import { deleteChannel, findChannel } from "../workspace/channels";
import { installingUserId, memberCount, memberIndexOf } from "../workspace/members";
import { channelMessages } from "../workspace/messages";
import { touch } from "../core/change-tracking";
import { seedInstallations, type SeededToken } from "../oauth/seeded-installations";

export interface AdminRuntime {
  state: EmulatorState;
  options: ResolvedOptions;
  clock: AdjustableClock;
  /** Told after POST /admin/reset replaced the state's contents (the journal starts over). */
  onReset?: () => void;
}

/** An admin body is an object whose fields (a manifest above all) may nest MAX_JSON_DEPTH deep. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 1;

/** Reads an admin body as JSON; too deep to be stored and read back is refused like malformed JSON, with its own code. */
export function parseAdminJson(text: string): unknown {
  if (text.trim() === "") return {};
  const parsed = parseJsonWithin(text, MAX_BODY_DEPTH);
  if (parsed.ok) return parsed.value;
  if (parsed.problem === "too_deep") {
    throw new WebApiError("json_too_deep", { message: `The body nests deeper than ${MAX_BODY_DEPTH} levels.` }, { status: 400 });
  }
  throw new WebApiError("invalid_json", {}, { status: 400 });
}

async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const body = parseAdminJson(await request.text());
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new WebApiError("invalid_arguments", { detail }, { status: 400 });
  }
  return parsed.data;
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** Everything a developer (or a test) wants to see, secrets masked; `team`, `channels`, user groups, assistant threads and deliveries are `ws`'s (default the first workspace). */
export function describeState(runtime: AdminRuntime, baseUrl: string, ws = runtime.state.workspace) {
  const { state, options, clock } = runtime;
  const now = clock.now();
  return {
    now: iso(now),
    now_ms: now,
    clock_offset_s: Math.round(clock.offsetMs() / 1000),
    options: {
      users: ws.userCount,
      seed: ws.seed,
      refresh_grace_s: options.refreshGraceSeconds,
      cursor_ttl_s: options.cursorTtlSeconds,
    },
    rate_limits: { enabled: state.rateLimitsEnabled, non_marketplace: state.nonMarketplaceLimits },
    faults: {
      latency_ms: state.faults.latencyMs,
      error_rate: state.faults.errorRate,
      drop_rate: state.faults.dropRate,
      methods: state.faults.methods,
    },
    team: { ...ws.team, members: memberCount(ws) },
    workspaces: [...state.workspaces.values()].map((w) => ({ ...w.team, members: memberCount(w) })),
    apps: [...state.apps.values()].map((a) => ({
      app_id: a.id,
      name: a.name,
      token_rotation_enabled: a.tokenRotationEnabled,
      request_url_verification: describeVerification(a.requestUrlVerification),
    })),
    installations: [...state.installations.values()].map((i) => ({
      id: i.id,
      app_id: i.appId,
      team_id: i.teamId,
      bot_user_id: i.botUserId,
      bot_id: i.botId,
      authed_user_id: i.authedUserId,
      bot_scopes: i.botScopes,
      user_scopes: i.userScopes,
      installed_at: iso(i.installedAt),
      uninstalled: i.uninstalled,
      refresh_grants: i.refreshGrants,
      refresh_requests: i.refreshRequests,
      joined_channels: [...i.joinedChannels],
      incoming_webhook: i.incomingWebhook
        ? { hook_id: i.incomingWebhook.hookId, channel_id: i.incomingWebhook.channelId, channel: `#${i.incomingWebhook.channelName}` }
        : null,
    })),
    tokens: [...state.tokens.values()].map((t) => ({
      kind: t.kind,
      family: t.family,
      masked: maskToken(t.value),
      state: displayedTokenState(t, now, options.refreshGraceSeconds),
      rotating: t.rotating,
      installation_id: t.installationId,
      app_id: t.appId,
      issued_at: iso(t.issuedAt),
      expires_at: iso(t.expiresAt),
      revoked_at: iso(t.revokedAt),
      used_at: iso(t.usedAt),
      ...(t.exchangedFor ? { exchanged_for: maskToken(t.exchangedFor) } : {}),
    })),
    config_tokens: describeConfigTokens(state, now, options.refreshGraceSeconds),
    // "Sign in with": who signed in to which app, never the token itself.
    sign_ins: [...state.signIns.tokens.values()].map((t) => ({
      masked: maskToken(t.value),
      app_id: t.appId,
      team_id: t.teamId,
      user_id: t.userId,
      scopes: t.scopes,
      auth_time: iso(t.authTime),
      issued_at: iso(t.issuedAt),
    })),
    channels: ws.channels.filter((c) => channelMessages(ws, c.id).length > 0).map((c) => ({ id: c.id, name: c.name, messages: channelMessages(ws, c.id) })),
    usergroups: describeUsergroups(ws),
    assistant_threads: describeAssistantThreads(ws),
    event_deliveries: describeDeliveries(state, ws.team.id),
    base_url: baseUrl,
  };
}

const AppBody = z.union([
  z.object({ app_id: z.string().optional(), manifest: z.record(z.string(), z.unknown()) }).strict(),
  z.object({ display_information: z.unknown() }).passthrough(),
]);
/**
 * How far the clock may be moved, in one call and in all: ten years is past every lifetime the emulator
 * knows (tokens, codes, cursors, grace periods), and far from where a date stops being a date.
 */
export const MAX_CLOCK_OFFSET_S = 10 * 365 * 24 * 3600;
const ClockBody = z.object({ advance_s: z.number().finite().min(0).max(MAX_CLOCK_OFFSET_S) });
const RateLimitsBody = z.object({ enabled: z.boolean(), non_marketplace: z.boolean().optional() });
const FaultsBody = z.object({
  latency_ms: z.number().int().min(0).max(60_000).optional(),
  error_rate: z.number().min(0).max(1).optional(),
  drop_rate: z.number().min(0).max(1).optional(),
  methods: z.array(z.string()).optional(),
});
const ChannelBody = z.union([
  z.strictObject({ id: z.string().min(1), archived: z.boolean() }),
  z.strictObject({ id: z.string().min(1), deleted: z.literal(true) }),
]);
const ConfigTokensBody = z.strictObject({ team_id: z.string().min(1).optional(), user_id: z.string().min(1).optional() });
const ResetBody = z.object({
  users: z.number().int().min(1).max(1_000_000).optional(),
  seed: z.string().min(1).optional(),
  workspaces: z.number().int().min(1).max(1_000).optional(),
});

/** At most this many installations per seed request: a larger seed comes in batches (`first`), each answer a few MB. */
export const MAX_SEED_BATCH = 5_000;
const SeedBody = z.strictObject({
  app_id: z.string().min(1).optional(),
  client_id: z.string().min(1).optional(),
  count: z.number().int().min(1).max(MAX_SEED_BATCH),
  first: z.number().int().min(0).max(100_000_000).default(0),
  name_prefix: z.string().min(1).max(40).default("Acme"),
  digits: z.number().int().min(1).max(9).default(5),
  /** Default: every installation when the app rotates, none when it does not. */
  rotating_share: z.number().min(0).max(1).optional(),
  user_share: z.number().min(0).max(1).default(0),
  users: z.number().int().min(1).max(1_000).default(5),
});

const seededTokenWire = (t: SeededToken) => ({
  access_token: t.value,
  ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}),
  ...(t.expiresAt !== undefined ? { expires_at_ms: t.expiresAt } : {}),
  issued_at_ms: t.issuedAt,
  scope: t.scopes.join(","),
});

export function registerAdminRoutes(router: Router, runtime: AdminRuntime): void {
  const ok = (body: Record<string, unknown>) => jsonResponse({ ok: true, ...body });

  router.get("/admin/apps", (ctx: RequestContext) => ok({ apps: [...runtime.state.apps.values()].map((a) => describeApp(a, ctx.baseUrl)) }));

  router.post("/admin/apps", async (ctx) => {
    const body = await readJson(ctx.request, AppBody);
    const isWrapped = "manifest" in body && body.manifest !== undefined && !("display_information" in body);
    const manifest = isWrapped ? body.manifest : body;
    const appId = isWrapped && typeof body.app_id === "string" ? body.app_id : undefined;
    const { app, created } = upsertApp(runtime.state, manifest, runtime.options, appId);
    return ok({ created, app: describeApp(app, ctx.baseUrl) });
  });

  // "Retry" on the app's event subscription settings: a fresh url_verification challenge, answered with its outcome.
  router.post("/admin/apps/:app_id/verify", async (ctx, params) => {
    const app = runtime.state.apps.get(params.app_id ?? "");
    if (!app) throw new WebApiError("app_not_found", {}, { status: 404 });
    const verification = await verifyRequestUrl(app, runtime.options);
    if (!verification) throw new WebApiError("no_request_url", { message: "This app has no event request URL to verify." }, { status: 409 });
    return ok({ app_id: app.id, request_url_verification: describeVerification(verification) });
  });

  // The emulator describes itself: which Web API methods it answers, with what they need and whether they page.
  router.get("/admin/methods", () =>
    ok({
      methods: [...METHODS.values()]
        .map((m) => ({
          name: m.name,
          tier: m.tier,
          auth: m.auth,
          scopes: { bot: m.scopes?.bot ?? null, user: m.scopes?.user ?? null },
          paginated: m.pages !== undefined,
          ...(m.pages ? { pages: m.pages } : {}),
          json: m.json === true,
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }),
  );

  router.get("/admin/clock", () => ok({ now: iso(runtime.clock.now()), now_ms: runtime.clock.now(), offset_s: Math.round(runtime.clock.offsetMs() / 1000) }));

  router.post("/admin/clock", async (ctx) => {
    const { advance_s } = await readJson(ctx.request, ClockBody);
    if (runtime.clock.offsetMs() / 1000 + advance_s > MAX_CLOCK_OFFSET_S) {
      const detail = `advance_s: the clock is already ${Math.round(runtime.clock.offsetMs() / 1000)} s ahead and may be at most ${MAX_CLOCK_OFFSET_S} s ahead in all (POST /admin/reset sets it back)`;
      throw new WebApiError("invalid_arguments", { detail }, { status: 400 });
    }
    runtime.clock.advance(advance_s * 1000);
    return ok({ now: iso(runtime.clock.now()), now_ms: runtime.clock.now(), offset_s: Math.round(runtime.clock.offsetMs() / 1000) });
  });

  // ?team_id=T…: that workspace's team, channels and deliveries (404 team_not_found for one that does not exist).
  router.get("/admin/state", (ctx) => {
    const teamId = new URL(ctx.request.url).searchParams.get("team_id");
    const ws = teamId === null ? runtime.state.workspace : runtime.state.workspaces.get(teamId);
    if (!ws) throw new WebApiError("team_not_found", {}, { status: 404 });
    return ok(describeState(runtime, ctx.baseUrl, ws));
  });

  router.post("/admin/rate-limits", async (ctx) => {
    const { enabled, non_marketplace } = await readJson(ctx.request, RateLimitsBody);
    runtime.state.rateLimitsEnabled = enabled;
    // The non-Marketplace profile stays as it was unless the body says.
    if (non_marketplace !== undefined) runtime.state.nonMarketplaceLimits = non_marketplace;
    runtime.state.rateWindows.clear();
    return ok({ rate_limits: { enabled, non_marketplace: runtime.state.nonMarketplaceLimits } });
  });

  router.post("/admin/faults", async (ctx) => {
    const body = await readJson(ctx.request, FaultsBody);
    const faults = runtime.state.faults;
    faults.latencyMs = body.latency_ms ?? faults.latencyMs;
    faults.errorRate = body.error_rate ?? faults.errorRate;
    faults.dropRate = body.drop_rate ?? faults.dropRate;
    faults.methods = body.methods ?? faults.methods;
    return ok({
      faults: { latency_ms: faults.latencyMs, error_rate: faults.errorRate, drop_rate: faults.dropRate, methods: faults.methods },
    });
  });

  // Archives, unarchives or deletes a channel, so that what a client meets when its channel goes away
  // (webhooks: 410 channel_is_archived, 404 channel_not_found) can be reached.
  router.post("/admin/channels", async (ctx) => {
    const body = await readJson(ctx.request, ChannelBody);
    const ws = runtime.state.workspace;
    const channel = findChannel(ws, body.id);
    if (!channel) throw new WebApiError("channel_not_found", {}, { status: 404 });
    // As on the platform, #general can be neither archived nor deleted.
    if (channel.isGeneral) throw new WebApiError("deleted" in body ? "cant_delete_general" : "cant_archive_general", {}, { status: 400 });
    if ("deleted" in body) {
      deleteChannel(ws, channel);
      return ok({ channel: { id: channel.id, name: channel.name, deleted: true } });
    }
    const changed = channel.isArchived !== body.archived;
    channel.isArchived = body.archived;
    touch(channel);
    // Done by the workspace's primary owner, as an admin would in the client.
    if (changed) dispatchChannelArchive(ctx, ws, channel, { user: installingUserId(ws), archived: body.archived });
    return ok({ channel: { id: channel.id, name: channel.name, is_archived: channel.isArchived } });
  });

  // "Generate Token" on the platform's "Your Apps" page: an app configuration token pair for a member of a
  // workspace (by default the first workspace's primary owner, who installs apps from the consent page).
  router.post("/admin/config-tokens", async (ctx) => {
    const body = await readJson(ctx.request, ConfigTokensBody);
    const ws = body.team_id === undefined ? runtime.state.workspace : runtime.state.workspaces.get(body.team_id);
    if (!ws) throw new WebApiError("team_not_found", {}, { status: 404 });
    const userId = body.user_id ?? installingUserId(ws);
    // A person of the workspace: bot users have no "Your Apps" page.
    const index = memberIndexOf(ws, userId);
    if (index < 0 || index >= ws.userCount) throw new WebApiError("user_not_found", {}, { status: 404 });
    const pair = issueConfigTokens(runtime.state, { teamId: ws.team.id, userId }, runtime.clock.now());
    return ok(configTokenAnswer(pair));
  });

  // Installations without the OAuth flow, a batch at a time (oauth/seeded-installations.ts): the tokens are
  // in the answer, as oauth.v2.access would hand them over, so the caller can store them (npm run seed).
  router.post("/admin/installations/seed", async (ctx) => {
    const body = await readJson(ctx.request, SeedBody);
    const app =
      body.app_id !== undefined
        ? runtime.state.apps.get(body.app_id)
        : [...runtime.state.apps.values()].find((a) => body.client_id === undefined || a.clientId === body.client_id);
    if (!app) throw new WebApiError("app_not_found", {}, { status: 404 });
    if (body.rotating_share !== undefined && body.rotating_share > 0 && !app.tokenRotationEnabled) {
      throw new WebApiError(
        "invalid_arguments",
        { detail: `rotating_share: ${app.name} has token rotation off, so none of its tokens rotate` },
        { status: 400 },
      );
    }
    const spec = {
      count: body.count,
      first: body.first,
      namePrefix: body.name_prefix,
      digits: body.digits,
      rotatingShare: body.rotating_share ?? (app.tokenRotationEnabled ? 1 : 0),
      userShare: body.user_share,
      users: body.users,
    };
    const seeded = seedInstallations(runtime.state, app, spec, runtime.options.seed, runtime.clock.now());
    return ok({
      instance_id: runtime.state.instanceId,
      app_id: app.id,
      app_name: app.name,
      installations: seeded.map((s) => ({
        installation_id: s.installation.id,
        team: s.team,
        bot_user_id: s.installation.botUserId,
        bot_id: s.installation.botId,
        authed_user_id: s.installation.authedUserId,
        installed_at_ms: s.installation.installedAt,
        bot: seededTokenWire(s.bot),
        ...(s.user ? { user: { ...seededTokenWire(s.user), user_id: s.installation.authedUserId } } : {}),
      })),
    });
  });

  router.post("/admin/reset", async (ctx) => {
    const body = await readJson(ctx.request, ResetBody);
    const shape = {
      users: body.users ?? runtime.options.users,
      seed: body.seed ?? runtime.options.seed,
      workspaces: body.workspaces ?? runtime.options.workspaces,
      seedContent: runtime.options.seedContent,
    };
    resetState(runtime.state, runtime.options, shape);
    runtime.clock.advance(-runtime.clock.offsetMs());
    runtime.onReset?.();
    const ws = runtime.state.workspace;
    return ok({ users: ws.userCount, seed: ws.seed, team: ws.team, workspaces: runtime.state.workspaces.size });
  });
}
