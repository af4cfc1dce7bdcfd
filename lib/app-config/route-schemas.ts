import { z } from "zod";

/** What the app-config routes accept, shared by their handlers. */
export const AppIdSchema = z.string().regex(/^A[0-9A-Z]{2,31}$/, "an app id such as A0123ABCD");
const scopeName = z.string().regex(/^[a-z0-9][a-z0-9:._-]{0,99}$/, "a scope name such as chat:write");
export const ScopeListSchema = z.array(scopeName).max(255);

/** The `appId` path segment of /api/app-config/apps/{appId}/…, checked. */
export async function appIdParam(context: { params: Promise<Record<string, string | string[] | undefined>> }): Promise<string> {
  return AppIdSchema.parse((await context.params).appId);
}
