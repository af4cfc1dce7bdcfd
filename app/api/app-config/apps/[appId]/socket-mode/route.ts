// GET  /api/app-config/apps/{appId}/socket-mode - The app's Socket Mode switch, app-level tokens (masked) and open connections
// POST /api/app-config/apps/{appId}/socket-mode - Switch the app between HTTP and Socket Mode (the emulator only)
import { z } from "zod";
import { getSocketMode, switchSocketMode } from "@/lib/app-config/socket-mode";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { parseJsonBody } from "@/lib/http";
import { getAppConfigRuntime } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ enabled: z.boolean() });

// A read of an app's tokens (masked) and connections, refused to other sites as the settings read is.
export const GET = handleRoute(
  async (_request, context, viewer) =>
    Response.json(await getSocketMode(await appIdParam(context), getAppConfigRuntime(viewer)), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const { enabled } = await parseJsonBody(request, Body);
    return Response.json(await switchSocketMode(appId, enabled, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
