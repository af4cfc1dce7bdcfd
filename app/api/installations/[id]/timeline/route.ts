// GET /api/installations/{id}/timeline - A page of an installation's timeline, newest first (masked values only)
import { z } from "zod";
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { MAX_TIMELINE_PAGE_SIZE, pageInstallationTimeline, TIMELINE_PAGE_SIZE } from "@/lib/installations/actions/page-timeline";

export const dynamic = "force-dynamic";

const PageQuery = z.object({
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(MAX_TIMELINE_PAGE_SIZE).default(TIMELINE_PAGE_SIZE),
});

export const GET = handleRoute(
  async (request, context, viewer) => {
    const page = parseQuery(request, PageQuery);
    const answer = await pageInstallationTimeline({ viewer, id: String((await context.params).id ?? ""), page });
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
  // A read of what the session holds, refused to other sites as GET /api/session is.
  { rejectCrossSite: true },
);
