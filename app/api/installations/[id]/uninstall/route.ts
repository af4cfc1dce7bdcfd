// POST /api/installations/{id}/uninstall - apps.uninstall: every token revoked upstream; the record stays, uninstalled, with its timeline
import { handleRoute } from "@/lib/access/handle-route";
import { throwIfRateLimited } from "@/lib/platform";
import { uninstallSessionInstallation } from "@/lib/installations/actions/uninstall";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { InstallationIdSchema } from "@/lib/installations/route-schemas";
import { actionCause } from "@/lib/console-request";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, context, viewer) => {
    const id = InstallationIdSchema.parse((await context.params).id);
    const { result, installation } = await uninstallSessionInstallation({ viewer, installationId: id, by: actionCause(request, "Uninstall button") });
    throwIfRateLimited("apps.uninstall", result);
    const answer: InstallationActionAnswer = { ok: result.ok, platform: result.body ?? null, installation };
    return Response.json(answer, { headers: { "x-upstream-time-ms": String(result.durationMs) } });
  },
  { mutating: true },
);
