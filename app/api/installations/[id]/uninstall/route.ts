// POST /api/installations/{id}/uninstall - apps.uninstall: every token revoked upstream; the record stays, uninstalled, with its timeline
import { handleRoute, InstallationIdSchema } from "@/lib/http";
import { throwIfRateLimited } from "@/lib/platform";
import { uninstallSessionInstallation } from "@/lib/session";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, context) => {
    const id = InstallationIdSchema.parse((await context.params).id);
    const { result, installation } = await uninstallSessionInstallation(id, "Uninstall button");
    throwIfRateLimited("apps.uninstall", result);
    return Response.json({ ok: result.ok, platform: result.body ?? null, installation }, { headers: { "x-upstream-time-ms": String(result.durationMs) } });
  },
  { mutating: true },
);
