// POST /api/tokens/revoke - auth.revoke on an installation's bot or user access token
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { throwIfRateLimited } from "@/lib/platform";
import { revokeSessionToken } from "@/lib/installations/actions/revoke-token";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { TokenActionSchema } from "@/lib/installations/route-schemas";
import { actionCause } from "@/lib/console-request";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const body = await parseJsonBody(request, TokenActionSchema);
    const { result, installation } = await revokeSessionToken({
      viewer,
      installationId: body.installation,
      kind: body.token,
      by: actionCause(request, "Revoke button"),
    });
    throwIfRateLimited("auth.revoke", result);
    const answer: InstallationActionAnswer = { ok: result.ok, platform: result.body ?? null, installation };
    return Response.json(answer, { headers: { "x-upstream-time-ms": String(result.durationMs) } });
  },
  { mutating: true },
);
