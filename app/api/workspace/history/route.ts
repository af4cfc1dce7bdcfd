// GET /api/workspace/history?channel=&user=&team=&cursor=&limit=&message= - A page of a conversation's messages with threads (older pages by cursor), and the member's ephemerals (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { HistoryQuery, loadWorkspaceHistory } from "@/lib/workspace-page/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) =>
    Response.json(await loadWorkspaceHistory(viewer, parseQuery(request, HistoryQuery)), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);
