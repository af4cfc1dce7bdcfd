// POST /api/collections/import - A collection file (the console's NDJSON, or a Postman collection v2.1) made a new collection; what was skipped and dropped is listed
import { handleRoute } from "@/lib/access/handle-route";
import { ImportBody } from "@/lib/collections/route-schemas";
import { importCollection } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { text, name } = await parseJsonBody(request, ImportBody);
    return Response.json(await importCollection(viewer, text, name), { status: 201 });
  },
  // The file as JSON text: a 1 MB file's escapes (every quote of a JSON file) can nearly double it.
  { mutating: true, maxBodyBytes: 2 * 1024 * 1024 },
);
