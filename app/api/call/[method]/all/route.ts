// GET /api/call/{method}/all - Every page of a cursor-paginated method, walked on the server and streamed as NDJSON
import { parseWalkQuery } from "@/lib/call/call-query";
import { streamSessionWalk } from "@/lib/call/walk-session";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, { params }, viewer) =>
    streamSessionWalk(viewer, String((await params).method ?? ""), parseWalkQuery(new URL(request.url).searchParams), request.signal),
  // A method called through GET can still change state: only the console's own pages may start a walk.
  { rejectCrossSite: true },
);
