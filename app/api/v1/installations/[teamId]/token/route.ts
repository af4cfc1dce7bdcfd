// GET /api/v1/installations/{team_id}/token - A fresh token for the app's own backend, with an API key (docs/token-api.openapi.json)
import { measuredRoute } from "@/lib/metrics";
import { serveToken } from "@/lib/token-api/serve";
import { plainTeamIdInPath } from "@/lib/token-api/warm";

export const dynamic = "force-dynamic";

type Context = { params: Promise<Record<string, string | string[] | undefined>> };

// No handleRoute, as /api/metrics: a backend reaches the console by whatever name its network gives it
// (`Host: lb` in a compose network), so there is no Host check, and the API key, never a cookie, says who
// asks (a browser is refused by serveToken). serveToken answers every error itself.
// A team id of letters and digits, as every real one is, is read from the path as it is (Next.js's param is
// the same segment, percent-decoded: nothing to decode here), so that a warm answer awaits nothing; any other
// segment is Next.js's param.
export const GET = measuredRoute(
  (request: Request, context: Context) => {
    const plain = plainTeamIdInPath(request.url);
    if (plain) return serveToken(request, plain);
    return context.params.then(({ teamId }) => serveToken(request, typeof teamId === "string" ? teamId : ""));
  },
  (metrics, status) => metrics.tokenApiRequests.inc({ status }),
);
