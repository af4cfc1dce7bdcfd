// POST /api/collections/{id}/link - A new share link (shown once; an earlier one stops working)
// DELETE /api/collections/{id}/link - Revoke the share link
import { handleRoute } from "@/lib/access/handle-route";
import { CollectionParams } from "@/lib/collections/route-schemas";
import { createShareLink, revokeShareLink } from "@/lib/collections/service";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = CollectionParams.parse(await params);
    return Response.json(await createShareLink(viewer, id), { status: 201, headers: { "cache-control": "no-store" } });
  },
  { mutating: true },
);

export const DELETE = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = CollectionParams.parse(await params);
    return Response.json({ collection: await revokeShareLink(viewer, id) });
  },
  { mutating: true },
);
