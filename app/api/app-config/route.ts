// GET /api/app-config - Which backend serves app settings here, the configuration token (masked), and the apps to open
import { getAppConfigOverview } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const GET = handleRoute(async () => Response.json(await getAppConfigOverview(), { headers: { "cache-control": "no-store" } }), {
  rejectCrossSite: true,
});
