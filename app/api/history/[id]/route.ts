// GET /api/history/{id} - One entry of this person's history, with its answer (at most 64 KB, `truncated` beyond)
import { handleRoute } from "@/lib/access/handle-route";
import { historyEntryFor } from "@/lib/history/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, { params }, viewer) =>
    Response.json(await historyEntryFor(viewer, String((await params).id ?? "")), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);
