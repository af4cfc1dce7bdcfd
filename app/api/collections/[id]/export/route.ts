// GET /api/collections/{id}/export - The collection as the console's NDJSON file (a header line, then one request a line, keys sorted)
import { handleRoute } from "@/lib/access/handle-route";
import { CollectionParams } from "@/lib/collections/route-schemas";
import { exportCollection } from "@/lib/collections/service";
import { ndjsonFileName } from "@/lib/collections/universal/ndjson";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = CollectionParams.parse(await params);
    const { name, text } = await exportCollection(viewer, id);
    return new Response(text, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${ndjsonFileName(name)}"`,
        "cache-control": "no-store",
      },
    });
  },
  { rejectCrossSite: true },
);
