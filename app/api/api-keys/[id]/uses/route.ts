// GET /api/api-keys/{id}/uses - A key's audit: every use of the token API with it, newest first
import { z } from "zod";
import { AppError } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { listApiKeyUses } from "@/lib/token-api/keys";

export const dynamic = "force-dynamic";

const QuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.coerce.number().int().min(1).optional(),
});

export const GET = handleRoute(
  async (request, context, viewer) => {
    const { id } = await context.params;
    const query = QuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw new AppError("invalid_request", { message: "limit is 1 to 200, before a sequence number." });
    const uses = await listApiKeyUses(viewer, typeof id === "string" ? id : "", {
      ...(query.data.limit ? { limit: query.data.limit } : {}),
      ...(query.data.before ? { before: query.data.before } : {}),
    });
    return Response.json({ ok: true, uses }, { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);
