// GET /api/collections - The viewer's collections, those their team shares and (admins) every shared one
// POST /api/collections - A new, empty collection of the viewer's
import { handleRoute } from "@/lib/access/handle-route";
import { CreateCollectionBody } from "@/lib/collections/route-schemas";
import { createCollection, listCollections } from "@/lib/collections/service";
import { parseJsonBody } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, _context, viewer) => Response.json({ collections: await listCollections(viewer) }, { headers: { "cache-control": "no-store" } }),
  {
    rejectCrossSite: true,
  },
);

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { name } = await parseJsonBody(request, CreateCollectionBody);
    return Response.json({ collection: await createCollection(viewer, name) }, { status: 201 });
  },
  { mutating: true, maxBodyBytes: 8 * 1024 },
);
