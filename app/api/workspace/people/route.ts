// GET /api/workspace/people?q=&team=&from= - People of the emulated workspace whose name or id holds q, to act as (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { PeopleSearchQuery, searchWorkspacePeople } from "@/lib/workspace-page/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) =>
    Response.json(await searchWorkspacePeople(viewer, parseQuery(request, PeopleSearchQuery)), { headers: { "cache-control": "no-store" } }),
  // Workspace data: refused to other sites.
  { rejectCrossSite: true },
);
