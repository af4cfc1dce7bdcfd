import { z } from "zod";
import { DEFAULT_PAGE_SIZE, INSTALLATION_FILTERS, MAX_CURSOR_CHARS, MAX_PAGE_SIZE, MAX_SEARCH_CHARS, type ListQuery } from "./universal/list-query";

/**
 * GET /api/session's list query, validated (anything out of range answers 422): the server's side of
 * list-query.ts. A cursor's content is read by list-cursor.ts (garbled: 400 invalid_cursor).
 */
export const listQuerySchema = z
  .object({
    q: z
      .string()
      .max(MAX_SEARCH_CHARS * 4)
      .transform((q) => q.trim().slice(0, MAX_SEARCH_CHARS))
      .default(""),
    state: z.enum(INSTALLATION_FILTERS).default("all"),
    after: z.string().min(1).max(MAX_CURSOR_CHARS).optional(),
    before: z.string().min(1).max(MAX_CURSOR_CHARS).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  })
  .refine((query) => query.after === undefined || query.before === undefined, {
    message: "Give after or before, not both.",
    path: ["before"],
  }) satisfies z.ZodType<ListQuery, unknown>;
