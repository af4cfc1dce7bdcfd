// DELETE /api/installations/{id} - Forgets an installation in this browser (nothing changes upstream)
import { handleRoute } from "@/lib/access/handle-route";
import { forgetSessionInstallation } from "@/lib/installations/actions/forget";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { InstallationIdSchema } from "@/lib/installations/route-schemas";

export const dynamic = "force-dynamic";

export const DELETE = handleRoute(
  async (_request, context, viewer) => {
    const id = InstallationIdSchema.parse((await context.params).id);
    await forgetSessionInstallation({ viewer, installationId: id });
    return Response.json({ ok: true, forgotten: id } satisfies InstallationActionAnswer);
  },
  { mutating: true },
);
