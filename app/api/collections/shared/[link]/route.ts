// GET /api/collections/shared/{link} - The collection a share link opens, for a signed-in member of its workspace (read-only unless theirs)
import { handleRoute } from "@/lib/access/handle-route";
import { LinkParams } from "@/lib/collections/route-schemas";
import { openShareLink } from "@/lib/collections/service";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, { params }, viewer) => {
    const { link } = LinkParams.parse(await params);
    return Response.json({ collection: await openShareLink(viewer, link) }, { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);
