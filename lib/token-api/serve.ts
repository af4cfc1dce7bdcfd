import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { clientAddress } from "@/lib/http/client-address";
import { toErrorResponse } from "@/lib/http/error-response";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { readBounded } from "@/lib/read-bounded";
import { getStore } from "@/lib/store";
import type { StoreApiKey, StoreTokenApiUse } from "@/lib/store";
import { audit } from "./audit";
import { failureReportSchema, reportFailure, REPORT_MAX_BYTES, type FailureReport } from "./report";
import { tokenFor } from "./token-for";
import { apiKeyHash } from "./keys";
import { fromBrowser, presentedKey, TEAM_ID, warmAnswer } from "./warm";

/**
 * GET /api/v1/installations/{team_id}/token?kind=bot|user[&user_id=U…]: the one route that answers a token,
 * and only to a machine (the app's own backend) holding an API key. It answers a token valid for at least
 * TOKEN_API_MARGIN_S, refreshing it first when it would not be (single-flight across every instance, through
 * the store's lock: a hundred backends asking at once make one refresh), with its expiry and scopes. Every
 * use is audited. The margin is promised only within a token's lifetime: with the background refresher
 * refreshing REFRESH_HORIZON_S before expiry, a token handed out lives until after the next refresh, which
 * never revokes it (the platform revokes the oldest of more than two).
 */

const querySchema = z
  .object({
    kind: z.enum(["bot", "user"]).default("bot"),
    user_id: z
      .string()
      .regex(/^[UW][A-Z0-9]{1,31}$/, "must be a user id (U… or W…)")
      .optional(),
  })
  .refine((q) => q.kind === "bot" || q.user_id !== undefined, { message: "kind=user needs user_id: whose user token", path: ["user_id"] })
  .refine((q) => q.kind === "user" || q.user_id === undefined, { message: "user_id goes with kind=user", path: ["user_id"] });

/**
 * The team id as the audit records it: a valid one as it is; anything else percent-encoded (`%00` for a NUL,
 * which a PostgreSQL text column refuses), so what was asked is kept as printable text that the store takes.
 */
function auditedTeamId(teamId: string): string {
  return TEAM_ID.test(teamId) ? teamId : encodeURIComponent(teamId).slice(0, 64);
}

/** A token bucket per key: `ratePerS` sustained, `burst` at once; answers how long to wait when empty. */
class Buckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly ratePerS: number,
    private readonly burst: number,
  ) {}

  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerS);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (this.buckets.size > 10_000) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - bucket.tokens) / this.ratePerS);
  }
}

/** Per key: TOKEN_API_RATE_PER_S (200) a second, twice that at once (a backend keeps its token until it nears expiry). Per address, failed keys: 20 a minute. */
const limits = () =>
  processSingleton("tokenApiLimits", () => {
    const { ratePerS } = getConfig().tokenApi;
    return { perKey: new Buckets(ratePerS, 2 * ratePerS), badKeys: new Buckets(20 / 60, 20) };
  });

function rateLimited(retryAfterS: number): AppError {
  return new AppError("token_api_rate_limited", { headers: { "Retry-After": String(Math.max(1, retryAfterS)) } });
}

/** The API key the request names (revoked or not: the caller refuses a revoked one, audited), or 401 (and 429 for an address that keeps sending bad ones). */
async function identify(request: Request): Promise<StoreApiKey> {
  const presented = presentedKey(request);
  const key = presented ? await (await getStore()).apiKeys.findByHash(apiKeyHash(presented)) : null;
  if (!key) {
    const wait = limits().badKeys.take(clientAddress(request.headers, getConfig().trustedProxyHops));
    if (wait > 0) throw rateLimited(wait);
    throw new AppError("invalid_api_key", { headers: { "WWW-Authenticate": 'Bearer realm="switchboard-token-api"' } });
  }
  return key;
}

/**
 * A key held back (429) is audited once a second, not once per refused request: a greedy backend must not
 * fill the audit.
 */
function firstLimitedThisSecond(keyId: string): boolean {
  const last = processSingleton("tokenApiLimitedAudit", () => new Map<string, number>());
  const now = Date.now();
  if (now - (last.get(keyId) ?? 0) < 1_000) return false;
  if (last.size > 10_000) last.clear();
  last.set(keyId, now);
  return true;
}

function invalid(issues: z.core.$ZodIssue[], where: string): AppError {
  return new AppError("invalid_request", { message: issues.map((i) => `${i.path.join(".") || where}: ${i.message}`).join("; ") });
}

function readQuery(request: Request): z.infer<typeof querySchema> {
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw invalid(parsed.error.issues, "query");
  return parsed.data;
}

/** A report's body: small JSON, read no further than REPORT_MAX_BYTES. */
async function readReport(request: Request): Promise<FailureReport> {
  const read = request.body ? await readBounded(request.body, { maxBytes: REPORT_MAX_BYTES, declaredLength: request.headers.get("content-length") }) : null;
  if (read?.outcome === "too_large") throw new AppError("payload_too_large", { message: `A report is at most ${REPORT_MAX_BYTES} bytes of JSON.` });
  if (read && read.outcome !== "complete") throw new AppError("request_aborted");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(read?.bytes ?? new Uint8Array()));
  } catch {
    throw new AppError("invalid_json");
  }
  const parsed = failureReportSchema.safeParse(json);
  if (!parsed.success) throw invalid(parsed.error.issues, "body");
  return parsed.data;
}

/**
 * The whole route, for GET (a token) and POST …/token/report (`action: "report"`: a backend says the token it
 * was given failed, report.ts): never throws, answers JSON with `Cache-Control: no-store`.
 */
export function serveToken(request: Request, teamIdParam: string, action: "get" | "report" = "get"): Response | Promise<Response> {
  const warm = action === "get" ? warmAnswer(request, teamIdParam, (keyId) => limits().perKey.take(keyId)) : undefined;
  if (!warm) return answerInFull(request, teamIdParam, action);
  // The headers Response.json gives, and the full path's.
  const response = new Response(warm.json, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
  audit({ teamId: teamIdParam, kind: "bot", refreshed: false, installationId: warm.installationId, keyId: warm.key.id, status: 200, at: Date.now() });
  return response;
}

/** serveToken's full path: every case, awaiting the store and the upstream as it needs. */
async function answerInFull(request: Request, teamIdParam: string, action: "get" | "report"): Promise<Response> {
  let key: StoreApiKey | undefined;
  const use: Omit<StoreTokenApiUse, "keyId" | "status" | "at"> = { teamId: auditedTeamId(teamIdParam), kind: "bot", refreshed: false };
  let response: Response;
  try {
    const browser = fromBrowser(request);
    // A browser without a key is refused as a browser; with one, the refusal is audited under that key
    // (a key in a browser is a key that leaked into a page).
    key = await identify(request).catch((error: unknown) => {
      throw browser ? new AppError("browser_not_allowed") : error;
    });
    const wait = limits().perKey.take(key.id);
    if (wait > 0) throw rateLimited(wait);
    if (browser) throw new AppError("browser_not_allowed");
    if (key.revokedAt !== undefined) throw new AppError("api_key_revoked");
    // The audit names the kind asked for, even when the query is refused (kind=user without user_id).
    if (new URL(request.url).searchParams.get("kind") === "user") use.kind = "user";
    const report = action === "report" ? await readReport(request) : undefined;
    const { kind, user_id: userId } = report ?? readQuery(request);
    use.kind = kind;
    if (userId) use.userId = userId;
    if (!TEAM_ID.test(teamIdParam)) throw new AppError("unknown_installation");
    // A workspace the key may not ask for answers exactly as one without the app.
    if (key.teamIds && !key.teamIds.includes(teamIdParam)) throw new AppError("unknown_installation");
    const id = await installationOf(teamIdParam, key);
    const answer = report ? await reportFailure(id, report, key) : await tokenFor(id, kind, userId, key);
    use.installationId = id;
    use.refreshed = answer.refreshed;
    response = Response.json(answer, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (!(error instanceof AppError)) logger.error({ err: error instanceof Error ? error.name : "unknown" }, "token API request failed");
    response = toErrorResponse(error);
    response.headers.set("cache-control", "no-store");
  }
  if (key && (response.status !== 429 || firstLimitedThisSecond(key.id))) {
    const status = response.status;
    const error = status === 200 ? undefined : ((await response.clone().json()) as { error?: string }).error;
    audit({ ...use, keyId: key.id, status, ...(error ? { error } : {}), at: Date.now() });
  }
  return response;
}

/**
 * The key's app's installation in this workspace (or organisation): by the app's id when the key names one,
 * else the one installation of its app key there. From the workspace's list of installations (cached until
 * one is made or deleted on any instance: no secret unsealed, no round trip once warm). It was every
 * installation's summary, copied for each request: 70% of the token API's own time at 100 installations.
 */
async function installationOf(teamId: string, key: StoreApiKey): Promise<string> {
  const inTeam = await (await getStore()).installations.inTeam(teamId);
  const found = inTeam.filter((s) => s.appKey === key.appKey && (!key.appId || s.appId === key.appId));
  if (found.length !== 1) throw new AppError("unknown_installation");
  return found[0]!.id;
}
