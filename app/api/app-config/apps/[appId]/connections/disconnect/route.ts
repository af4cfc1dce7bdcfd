// POST /api/app-config/apps/{appId}/connections/disconnect - Send `disconnect` to one Socket Mode connection or each (to test reconnects)
import { z } from "zod";
import { disconnectConnections } from "@/lib/app-config/socket-mode";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { DISCONNECT_REASONS } from "@/lib/app-config/universal/socket-mode";
import { parseJsonBody } from "@/lib/http";
import { getAppConfigRuntime } from "@/lib/app-config";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.strictObject({ reason: z.enum(DISCONNECT_REASONS), connectionId: z.string().min(1).max(100).optional() });

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const { reason, connectionId } = await parseJsonBody(request, Body);
    return Response.json(await disconnectConnections(appId, { reason, ...(connectionId ? { connectionId } : {}) }, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
