import { z } from "zod";
import { DEFAULT_PAGE_SIZE, INSTALLATION_FILTERS, MAX_OFFSET, MAX_PAGE_SIZE, MAX_SEARCH_CHARS, type ListQuery } from "./universal/list-query";

/** GET /api/session's list query, validated (anything out of range answers 422): the server's side of list-query.ts. */
export const listQuerySchema = z.object({
  q: z
    .string()
    .max(MAX_SEARCH_CHARS * 4)
    .transform((q) => q.trim().slice(0, MAX_SEARCH_CHARS))
    .default(""),
  state: z.enum(INSTALLATION_FILTERS).default("all"),
  offset: z.coerce.number().int().min(0).max(MAX_OFFSET).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
}) satisfies z.ZodType<ListQuery, unknown>;
