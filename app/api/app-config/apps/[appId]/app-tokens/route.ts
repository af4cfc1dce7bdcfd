// POST /api/app-config/apps/{appId}/app-tokens - Generate an app-level token (xapp-…), its value in this answer only
import { z } from "zod";
import { generateAppToken } from "@/lib/app-config/socket-mode";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { APP_TOKEN_SCOPES } from "@/lib/app-config/universal/socket-mode";
import { parseJsonBody } from "@/lib/http";
import { getAppConfigRuntime } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.strictObject({
  name: z.string().trim().min(1, "a name for the token").max(100),
  scopes: z.array(z.enum(APP_TOKEN_SCOPES)).min(1, "at least one scope, such as connections:write").max(APP_TOKEN_SCOPES.length),
});

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const body = await parseJsonBody(request, Body);
    // The token in clear: to the admin who asked, never kept in any cache.
    return Response.json(await generateAppToken(appId, { name: body.name, scopes: [...new Set(body.scopes)] }, getAppConfigRuntime(viewer)), {
      headers: { "cache-control": "no-store" },
    });
  },
  { mutating: true },
);
