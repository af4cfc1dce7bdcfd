// PUT /api/collections/{id}/order - Put the collection's requests in this order (each id once)
import { handleRoute } from "@/lib/access/handle-route";
import { CollectionParams, OrderBody } from "@/lib/collections/route-schemas";
import { reorderSavedRequests } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const PUT = handleRoute(
  async (request, { params }, viewer) => {
    const { ids } = await parseJsonBody(request, OrderBody);
    const { id } = CollectionParams.parse(await params);
    return Response.json({ requests: await reorderSavedRequests(viewer, id, ids) });
  },
  { mutating: true, maxBodyBytes: 64 * 1024 },
);
