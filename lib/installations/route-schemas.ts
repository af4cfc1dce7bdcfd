import { z } from "zod";
import { INSTALLATION_ID } from "./record";
import { TOKEN_KINDS } from "./token-kind";

/** Ids of installations (their cookie names) and the token a route acts with. */
export const InstallationIdSchema = z.string().regex(INSTALLATION_ID, "an installation id from GET /api/session");
export const TokenKindSchema = z.enum(TOKEN_KINDS);
export const TokenActionSchema = z.object({ installation: InstallationIdSchema, token: TokenKindSchema.default("bot") });
