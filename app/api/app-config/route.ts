// GET /api/app-config - Which backend serves app settings here, the configuration token (masked), and the apps to open
import { getAppConfigOverview, getAppConfigRuntime } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, _context, viewer) => Response.json(await getAppConfigOverview(getAppConfigRuntime(viewer)), { headers: { "cache-control": "no-store" } }),
  {
    rejectCrossSite: true,
  },
);
