import { z } from "zod";
import { DEFAULT_MAX_PAGES, MAX_PAGES_CEILING } from "./fetch-all-events";
import { isCredentialKey } from "@/lib/platform/credential-params";

/** The console's own query keys of GET /api/call/{method}/all; every other key is a parameter of the method. */
const OWN_KEYS = new Set(["installation", "token", "max_pages"]);

const QuerySchema = z.object({
  installation: z.string().min(1, "choose an installation"),
  token: z.enum(["bot", "user"]).default("bot"),
  max_pages: z.coerce.number().int().min(1).max(MAX_PAGES_CEILING).default(DEFAULT_MAX_PAGES),
});

export interface FetchAllQuery {
  installationId: string;
  tokenKind: "bot" | "user";
  maxPages: number;
  /** The method's parameters, cursor included when the walk starts mid-way. */
  params: Record<string, string>;
}

/** Splits the query into the console's keys (validated) and the method's parameters (credentials dropped). */
export function parseFetchAllQuery(search: URLSearchParams): FetchAllQuery {
  const own: Record<string, string> = {};
  const params: Record<string, string> = {};
  for (const [key, value] of search) {
    if (OWN_KEYS.has(key)) own[key] = value;
    else if (!isCredentialKey(key)) params[key] = value;
  }
  const parsed = QuerySchema.parse(own);
  return { installationId: parsed.installation, tokenKind: parsed.token, maxPages: parsed.max_pages, params };
}
