// GET /api/app-config/apps/{appId} - One app's settings: credentials masked, scopes, events, rotation, manifest, installations
import { getAppConfigRuntime, getAppSettings } from "@/lib/app-config";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

// A read that may rotate the configuration token (and reads app secrets' tails): refused to other sites.
export const GET = handleRoute(
  async (_request, context, viewer) =>
    Response.json(await getAppSettings(await appIdParam(context), getAppConfigRuntime(viewer)), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);
