import { z } from "zod";

/** Ids of installations (their cookie names) and the token a route acts with. */
export const InstallationIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, "an installation id from GET /api/session");
export const TokenKindSchema = z.enum(["bot", "user"]);
export const TokenActionSchema = z.object({ installation: InstallationIdSchema, token: TokenKindSchema.default("bot") });
