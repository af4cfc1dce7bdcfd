// GET /api/session - The installations this person sees, a page at a time (?q=&state=&offset=&limit=): tokens masked, expiry, scopes, state, timeline
import { handleRoute } from "@/lib/access/handle-route";
import { listQuerySchema } from "@/lib/installations/list-query-schema";
import { getConsoleSession } from "@/lib/session/console-session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request) => {
    const params = new URL(request.url).searchParams;
    // A ZodError answers 422 invalid_request with what is wrong (lib/http).
    const query = listQuerySchema.parse({
      q: params.get("q") ?? undefined,
      state: params.get("state") ?? undefined,
      offset: params.get("offset") ?? undefined,
      limit: params.get("limit") ?? undefined,
    });
    return Response.json(await getConsoleSession("GET /api/session", query), { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);
