// GET /api/workspace/views?user=&team= - The member's open modals and App Homes (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { loadMemberViews, MemberQuery } from "@/lib/workspace-page/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) =>
    Response.json(await loadMemberViews(viewer, parseQuery(request, MemberQuery)), { headers: { "cache-control": "no-store" } }),
  { rejectCrossSite: true },
);
