// POST /api/tokens/refresh - Refreshes an installation's bot or user token now (single-flight)
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { refreshSessionToken } from "@/lib/installations/actions/refresh-token";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { TokenActionSchema } from "@/lib/installations/route-schemas";
import { actionCause } from "@/lib/console-request";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const body = await parseJsonBody(request, TokenActionSchema);
    const installation = await refreshSessionToken({
      viewer,
      installationId: body.installation,
      kind: body.token,
      by: actionCause(request, "Refresh button"),
    });
    return Response.json({ ok: true, installation } satisfies InstallationActionAnswer);
  },
  { mutating: true },
);
