// POST /api/app-config/apps/{appId}/scopes - Replace the app's bot and user scopes in its manifest (installations then reinstall)
import { z } from "zod";
import { changeAppScopes, getAppConfigRuntime } from "@/lib/app-config";
import { appIdParam, ScopeListSchema } from "@/lib/app-config/route-schemas";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.object({ bot: ScopeListSchema, user: ScopeListSchema });

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const { bot, user } = await parseJsonBody(request, Body);
    return Response.json(await changeAppScopes(appId, bot, user, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
