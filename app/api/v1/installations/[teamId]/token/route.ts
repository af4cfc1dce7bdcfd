// GET /api/v1/installations/{team_id}/token - A fresh token for the app's own backend, with an API key (docs/token-api.openapi.json)
import { handleRoute } from "@/lib/access/handle-route";
import { measuredRoute } from "@/lib/ops/metrics";
import { serveToken } from "@/lib/token-api/serve";

export const dynamic = "force-dynamic";

export const GET = measuredRoute(
  handleRoute(async (request, context) => {
    const { teamId } = await context.params;
    return serveToken(request, typeof teamId === "string" ? teamId : "");
  }),
  (metrics, status) => metrics.tokenApiRequests.inc({ status }),
);
