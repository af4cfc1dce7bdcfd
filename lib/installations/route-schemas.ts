import { z } from "zod";
import { TOKEN_KINDS } from "./universal/token-kind";

/**
 * Ids of installations and the token a route acts with. An id of the wrong shape is taken as given: it names
 * no installation, so every route answers it 404 unknown_installation, as it does an unknown one (store.ts).
 */
export const InstallationIdSchema = z.string({ error: "an installation id from GET /api/session" });
export const TokenKindSchema = z.enum(TOKEN_KINDS);
export const TokenActionSchema = z.object({ installation: InstallationIdSchema, token: TokenKindSchema.default("bot") });
