// POST /api/app-config/apps/{appId}/rotation - Turn token rotation on for the app, for good (confirm: true)
import { z } from "zod";
import { getAppConfigRuntime, turnOnTokenRotation } from "@/lib/app-config";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

// The platform cannot turn rotation off again, so the caller must say it understood.
const Body = z.object({
  confirm: z.literal(true, { error: "confirm turning token rotation on: it cannot be turned off, and tokens must then be refreshed every 12 hours" }),
});

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    await parseJsonBody(request, Body);
    return Response.json(await turnOnTokenRotation(appId, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
