// DELETE /api/api-keys/{id} - Revokes an API key (an admin's): the token API refuses it from then on
import { handleRoute } from "@/lib/access/handle-route";
import { revokeApiKey } from "@/lib/token-api/keys";

export const dynamic = "force-dynamic";

export const DELETE = handleRoute(
  async (_request, context, viewer) => {
    const { id } = await context.params;
    return Response.json({ ok: true, apiKey: await revokeApiKey(viewer, typeof id === "string" ? id : "") });
  },
  { mutating: true },
);
