// GET /api/history - The explorer's lasting history of this person, newest first: filters, keyset pages
// DELETE /api/history - Clear this person's history (nobody else's)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { clearHistoryFor, HistoryListQuery, listHistoryFor } from "@/lib/history/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) =>
    Response.json(await listHistoryFor(viewer, parseQuery(request, HistoryListQuery)), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);

export const DELETE = handleRoute(async (_request, _context, viewer) => Response.json({ cleared: await clearHistoryFor(viewer) }), { mutating: true });
