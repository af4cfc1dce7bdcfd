// GET /api/workspace?user=&team=&people= - What a member of the emulated workspace sees: people, apps, conversations (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { loadWorkspaceMember, PeopleQuery } from "@/lib/workspace-page/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) =>
    Response.json(await loadWorkspaceMember(viewer, parseQuery(request, PeopleQuery)), { headers: { "cache-control": "no-store" } }),
  // Workspace data: refused to other sites.
  { rejectCrossSite: true },
);
