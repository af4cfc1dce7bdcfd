import * as z from "zod/mini";

/**
 * The body of every error answer of the console's routes: written by toErrorResponse (error-response.ts),
 * read by the console's pages (lib/swr/console-fetch.ts), so both hold to one shape. Browser-safe: no
 * server-only import. zod/mini because the pages bundle it: about 5 kB gzipped where classic zod is
 * about 90.
 */
export const errorBodySchema = z.object({
  ok: z.literal(false),
  /** One of the console's codes (error-codes.ts), or an upstream's it relayed. */
  error: z.string(),
  message: z.string(),
  /** A request that failed its schema: the paths that failed and why (never the values, which may be secrets). */
  issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
