import "server-only";
import { getConfig } from "@/lib/config";
import { platformClockFor } from "@/lib/platform";
import { knownUpstreamAbout } from "@/lib/platform/upstream-about";
import { peekStore } from "@/lib/store";
import type { StoreApiKey } from "@/lib/store";
import { apiKeyHash, looksLikeApiKey } from "./keys";
import { botAnswerJson } from "./warm-body";

/**
 * The token API's warm path (issue 43): a bot token answered with no `await` at all, when every cache holds
 * what the answer needs. Each promise on the way (the store opened, its guarded reads, the upstream's
 * description, twice) cost a few µs of the async hooks Next.js's AsyncLocalStorage installs, and with the
 * record's copy into the console's shape (fromStoreInstallation) they were most of the token API's own time
 * (docs/benchmarks.md, issue 43).
 * It answers only what serve.ts's full path (answerInFull, tokenFor) would answer the same way without
 * waiting: anything else (a key, workspace or installation not cached, a token to refresh, a record with
 * something to learn, a user token, any refusal) is undefined, and the full path answers it. Nothing is
 * changed before it decides, except the key's rate limit, taken last (an empty bucket is the full path's 429).
 */

/**
 * A browser says so: its requests carry these, and a token must never reach one. Every browser that sends
 * Fetch Metadata sends Sec-Fetch-Site and Sec-Fetch-Dest; Node's own fetch (undici), what a backend uses,
 * sends Sec-Fetch-Mode alone, so that one does not count.
 */
const BROWSER_HEADERS = ["origin", "cookie", "sec-fetch-site", "sec-fetch-dest", "sec-fetch-user"];

export const fromBrowser = (request: Request) => BROWSER_HEADERS.some((h) => request.headers.has(h));

export const TEAM_ID = /^[TE][A-Z0-9]{1,31}$/;

const BEARER = /^Bearer\s+(\S+)$/i;

/** The token route's path with a team id of the shape every real one has: nothing in it to percent-decode. */
const PLAIN_TEAM_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\/api\/v1\/installations\/([TE][A-Z0-9]{1,31})\/token(?:[?#]|$)/;

/**
 * The team id in a token request's URL when it is plain (letters and digits, as TEAM_ID), which is then
 * exactly Next.js's `teamId` param (the segment percent-decoded: there is nothing to decode), read without
 * awaiting the params' promise; undefined for any other segment (the route awaits Next.js's param).
 */
export function plainTeamIdInPath(url: string): string | undefined {
  const team = PLAIN_TEAM_PATH.exec(url)?.[1];
  return team !== undefined && TEAM_ID.test(team) ? team : undefined;
}

/** The key a request names in its Authorization header, if it looks like one of ours. */
export function presentedKey(request: Request): string | undefined {
  const match = BEARER.exec(request.headers.get("authorization") ?? "");
  return match?.[1] && looksLikeApiKey(match[1]) ? match[1] : undefined;
}

/** Whether the query asks for the bot's token with nothing the full path would refuse or read otherwise (`kind=bot` or no kind, no user_id). */
function asksForBotToken(url: string): boolean {
  const at = url.indexOf("?");
  // What backends send (and what the bench asks), without parsing a query.
  if (at < 0 || url.slice(at) === "?kind=bot") return true;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    if (name === "user_id" || (name === "kind" && value !== "bot")) return false;
  }
  return true;
}

interface WarmAnswer {
  key: StoreApiKey;
  installationId: string;
  /** The answer's JSON (warm-body.ts). */
  json: string;
}

/**
 * The answer from the caches, or undefined for the full path. `take` is the key's rate limit (answers how
 * long to wait, 0 when a request may go).
 */
export function warmAnswer(request: Request, teamId: string, take: (keyId: string) => number): WarmAnswer | undefined {
  if (!TEAM_ID.test(teamId) || fromBrowser(request) || !asksForBotToken(request.url)) return undefined;
  const presented = presentedKey(request);
  const store = peekStore();
  if (!presented || !store) return undefined;
  const key = store.apiKeys.peekByHash(apiKeyHash(presented));
  if (!key || key.revokedAt !== undefined || (key.teamIds && !key.teamIds.includes(teamId))) return undefined;
  const refs = store.installations.peekTeam(teamId);
  if (!refs) return undefined;
  // The key's app's one installation here, as installationOf finds it (a loop: no array made per answer).
  let id: string | undefined;
  for (const ref of refs) {
    if (ref.appKey !== key.appKey || (key.appId && ref.appId !== key.appId)) continue;
    if (id !== undefined) return undefined;
    id = ref.id;
  }
  if (id === undefined) return undefined;
  const record = store.installations.peek(id);
  // What tokenFor's upToDate would learn and save first (the emulator answering now, the bot's id) is the full path's.
  const config = getConfig();
  const about = knownUpstreamAbout(config.upstream.baseUrl);
  if (!record || !about || record.state !== "active" || !record.botId) return undefined;
  if (about.emulator && about.instanceId && record.upstreamInstanceId !== about.instanceId) return undefined;
  const token = record.bot;
  if (!token || token.revoked) return undefined;
  const { marginS } = config.tokenApi;
  const now = platformClockFor(config.upstream.baseUrl).now();
  // A token that would not last the margin is refreshed first: the full path's.
  if (token.refreshToken && token.expiresAt !== undefined && token.expiresAt - now < marginS * 1000) return undefined;
  if (take(key.id) > 0) return undefined;
  return { key, installationId: record.id, json: botAnswerJson(record, token, marginS, now) };
}
