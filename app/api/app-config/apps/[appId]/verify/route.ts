// POST /api/app-config/apps/{appId}/verify - Send the app's event request URL a fresh url_verification challenge
import { getAppConfigRuntime, verifyAppRequestUrl } from "@/lib/app-config";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, context, viewer) => Response.json(await verifyAppRequestUrl(await appIdParam(context), getAppConfigRuntime(viewer))),
  { mutating: true },
);
