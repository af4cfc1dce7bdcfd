// POST /api/v1/installations/{team_id}/token/report - A backend reports that the token it was given failed (docs/token-api.md)
import { measuredRoute } from "@/lib/metrics";
import { serveToken } from "@/lib/token-api/serve";

export const dynamic = "force-dynamic";

type Context = { params: Promise<Record<string, string | string[] | undefined>> };

// No handleRoute, as the token route beside it: the API key says who asks, whatever host name reaches the console.
export const POST = measuredRoute(
  async (request: Request, context: Context) => {
    const { teamId } = await context.params;
    return serveToken(request, typeof teamId === "string" ? teamId : "", "report");
  },
  (metrics, status) => metrics.tokenApiRequests.inc({ status }),
);
