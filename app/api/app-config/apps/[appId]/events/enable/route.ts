// POST /api/app-config/apps/{appId}/events/enable - Deliver the app's events again after the platform disabled them (admins; the emulator only)
import { enableAppEvents, getAppConfigRuntime } from "@/lib/app-config";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, context, viewer) => Response.json(await enableAppEvents(await appIdParam(context), getAppConfigRuntime(viewer))),
  { mutating: true },
);
