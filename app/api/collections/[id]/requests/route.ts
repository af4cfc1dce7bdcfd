// POST /api/collections/{id}/requests - Save a request at the end of a collection (never a token: refused)
import { handleRoute } from "@/lib/access/handle-route";
import { AddRequestBody, CollectionParams } from "@/lib/collections/route-schemas";
import { addSavedRequest } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, { params }, viewer) => {
    const fields = await parseJsonBody(request, AddRequestBody);
    const { id } = CollectionParams.parse(await params);
    return Response.json({ request: await addSavedRequest(viewer, id, fields) }, { status: 201 });
  },
  { mutating: true, maxBodyBytes: 1024 * 1024 },
);
