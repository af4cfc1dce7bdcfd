import { z } from "zod";
import { DEFAULT_MAX_PAGES, MAX_PAGES_CEILING } from "@/lib/explorer/fetch-all-events";
import { InstallationIdSchema, TokenKindSchema } from "@/lib/installations/route-schemas";
import type { TokenKind } from "@/lib/installations/universal/token-kind";
import { isCredentialKey, methodParams } from "@/lib/platform/credential-params";
import { SavedRequestIdSchema } from "./saved-request";

/**
 * The console's own query keys of /api/call/{method} (CALL_SELECTOR_KEYS: the installation and the token) and
 * of …/all (those and max_pages). Every other key is a parameter of the method.
 */
const CallSelectorSchema = z.object({
  installation: InstallationIdSchema,
  token: TokenKindSchema.default("bot"),
  // The saved request a collection run sends (lib/collections), recorded with its history entry: the console's, never the platform's.
  savedRequestId: SavedRequestIdSchema.optional(),
});
const WalkSelectorSchema = CallSelectorSchema.extend({
  max_pages: z.coerce.number().int().min(1).max(MAX_PAGES_CEILING).default(DEFAULT_MAX_PAGES),
});
const WALK_KEYS: ReadonlySet<string> = new Set(Object.keys(WalkSelectorSchema.shape));

/** The installation and the token a call acts with. */
export interface CallQuery {
  installationId: string;
  tokenKind: TokenKind;
}

export interface WalkQuery extends CallQuery {
  maxPages: number;
  /** The method's parameters (credentials dropped), cursor included when the walk starts mid-way. */
  params: Record<string, string>;
  /** The credentials' names the query carried, dropped (the history says so). */
  dropped: string[];
  /** The saved request this walk runs, recorded with its history entry. */
  savedRequestId?: string;
}

/**
 * The credentials' names a query carried, which the call leaves out (the history says so). The console's
 * own `token` (which of the installation's tokens to call with: bot, user) is not one: only a second value
 * of it, which the call drops, is. So a call the explorer sends with `token=bot` left nothing out.
 */
export function carriedCredentials(search: URLSearchParams, ownKeys: ReadonlySet<string>): string[] {
  const carried = [...search.keys()].filter((key) => isCredentialKey(key) && (!ownKeys.has(key) || search.getAll(key).length > 1));
  return [...new Set(carried)];
}

/** The schema's keys as the query gives them (the first value of each), validated. */
function readOwnKeys<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>, search: URLSearchParams): z.infer<z.ZodObject<Shape>> {
  return schema.parse(Object.fromEntries(Object.keys(schema.shape).map((key) => [key, search.get(key) ?? undefined])));
}

/**
 * GET and POST /api/call/{method}: who calls. The method's arguments are read by callArguments
 * (lib/platform/call-arguments.ts), the rule the browser rebuilds the request it sent with.
 */
export function parseCallQuery(search: URLSearchParams): CallQuery {
  const own = readOwnKeys(CallSelectorSchema, search);
  return { installationId: own.installation, tokenKind: own.token };
}

/** GET /api/call/{method}/all: who walks, how many pages at most, and the method's parameters. */
export function parseWalkQuery(search: URLSearchParams): WalkQuery {
  const own = readOwnKeys(WalkSelectorSchema, search);
  return {
    installationId: own.installation,
    tokenKind: own.token,
    maxPages: own.max_pages,
    params: methodParams(search, WALK_KEYS),
    dropped: carriedCredentials(search, WALK_KEYS),
    ...(own.savedRequestId ? { savedRequestId: own.savedRequestId } : {}),
  };
}
