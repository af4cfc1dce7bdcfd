// GET /api/v1/installations/{team_id}/token - A fresh token for the app's own backend, with an API key (docs/token-api.openapi.json)
import { measuredRoute } from "@/lib/metrics";
import { serveToken } from "@/lib/token-api/serve";

export const dynamic = "force-dynamic";

type Context = { params: Promise<Record<string, string | string[] | undefined>> };

// No handleRoute, as /api/metrics: a backend reaches the console by whatever name its network gives it
// (`Host: lb` in a compose network), so there is no Host check, and the API key, never a cookie, says who
// asks (a browser is refused by serveToken). serveToken answers every error itself.
export const GET = measuredRoute(
  async (request: Request, context: Context) => {
    const { teamId } = await context.params;
    return serveToken(request, typeof teamId === "string" ? teamId : "");
  },
  (metrics, status) => metrics.tokenApiRequests.inc({ status }),
);
