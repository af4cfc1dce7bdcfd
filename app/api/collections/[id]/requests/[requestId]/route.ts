// PATCH /api/collections/{id}/requests/{requestId} - Rename or change a saved request (its bindings too)
// DELETE /api/collections/{id}/requests/{requestId} - Remove it (the others close the gap)
import { handleRoute } from "@/lib/access/handle-route";
import { PatchRequestBody, RequestParams } from "@/lib/collections/route-schemas";
import { removeSavedRequest, updateSavedRequest } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const PATCH = handleRoute(
  async (request, { params }, viewer) => {
    // The body first: a NUL character in it is refused before anything else is checked.
    const patch = await parseJsonBody(request, PatchRequestBody);
    const { id, requestId } = RequestParams.parse(await params);
    return Response.json({ request: await updateSavedRequest(viewer, id, requestId, patch) });
  },
  { mutating: true, maxBodyBytes: 1024 * 1024 },
);

export const DELETE = handleRoute(
  async (_request, { params }, viewer) => {
    const { id, requestId } = RequestParams.parse(await params);
    await removeSavedRequest(viewer, id, requestId);
    return Response.json({ ok: true });
  },
  { mutating: true },
);
