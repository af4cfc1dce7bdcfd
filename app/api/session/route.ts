// GET /api/session - The installations this person sees, a page at a time (?q=&state=&offset=&limit=): tokens masked, expiry, scopes, state, timeline
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { listQuerySchema } from "@/lib/installations/list-query-schema";
import { getConsoleSession } from "@/lib/session/console-session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request, _context, viewer) => {
    // A ZodError answers 422 invalid_request with what is wrong (lib/http).
    const query = parseQuery(request, listQuerySchema);
    return Response.json(await getConsoleSession({ viewer, query }), { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);
