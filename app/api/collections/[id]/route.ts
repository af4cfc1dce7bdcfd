// GET /api/collections/{id} - A collection with its saved requests, in order
// PATCH /api/collections/{id} - Rename it, or share it with the team (or stop): its owner or an admin
// DELETE /api/collections/{id} - Delete it with its requests: its owner or an admin
import { handleRoute } from "@/lib/access/handle-route";
import { CollectionParams, PatchCollectionBody } from "@/lib/collections/route-schemas";
import { deleteCollection, getCollection, updateCollection } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = CollectionParams.parse(await params);
    return Response.json({ collection: await getCollection(viewer, id) }, { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);

export const PATCH = handleRoute(
  async (request, { params }, viewer) => {
    const patch = await parseJsonBody(request, PatchCollectionBody);
    const { id } = CollectionParams.parse(await params);
    return Response.json({ collection: await updateCollection(viewer, id, patch) });
  },
  { mutating: true, maxBodyBytes: 8 * 1024 },
);

export const DELETE = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = CollectionParams.parse(await params);
    await deleteCollection(viewer, id);
    return Response.json({ ok: true });
  },
  { mutating: true },
);
