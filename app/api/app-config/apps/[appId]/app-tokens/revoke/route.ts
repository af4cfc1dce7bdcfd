// POST /api/app-config/apps/{appId}/app-tokens/revoke - Revoke an app-level token by its name
import { z } from "zod";
import { revokeAppToken } from "@/lib/app-config/socket-mode";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { parseJsonBody } from "@/lib/http";
import { getAppConfigRuntime } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ name: z.string().min(1).max(100) });

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const { name } = await parseJsonBody(request, Body);
    return Response.json(await revokeAppToken(appId, name, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
