// GET, POST /api/call/{method} - Any Web API method with an installation's bot or user token; the platform's JSON as it came
import { handleRoute, type ViewerHandler } from "@/lib/access/handle-route";
import { proxyMethodCall } from "@/lib/call/call-proxy";
import { measuredRoute } from "@/lib/metrics";

export const dynamic = "force-dynamic";

const call: ViewerHandler = async (request, { params }, viewer) => proxyMethodCall(request, String((await params).method ?? ""), viewer);
const timed = <C>(handler: (request: Request, context: C) => Promise<Response>) =>
  measuredRoute(handler, (metrics, status, seconds) => metrics.callDuration.observe({ status }, seconds));

export const GET = timed(handleRoute(call, { rejectCrossSite: true }));
export const POST = timed(handleRoute(call, { mutating: true }));
