// DELETE /api/webhooks/{id} - Forget a pasted webhook (installation webhooks go with their installation)
import { AppError } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { removePastedWebhook } from "@/lib/webhooks/store";

export const dynamic = "force-dynamic";

export const DELETE = handleRoute(
  async (_request, { params }, viewer) => {
    const { id } = await params;
    if (typeof id !== "string" || !(await removePastedWebhook(viewer, id))) {
      throw new AppError("unknown_webhook", { message: "No pasted webhook with this id." });
    }
    return Response.json({ ok: true });
  },
  { mutating: true },
);
