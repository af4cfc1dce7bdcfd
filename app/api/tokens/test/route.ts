// POST /api/tokens/test - auth.test with an installation's bot or user token (kept fresh), its answer in the timeline
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { throwIfRateLimited } from "@/lib/platform";
import { testSessionToken } from "@/lib/installations/actions/test-token";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { TokenActionSchema } from "@/lib/installations/route-schemas";
import { actionCause } from "@/lib/console-request";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const body = await parseJsonBody(request, TokenActionSchema);
    const { result, refreshed, identity, installation } = await testSessionToken({
      viewer,
      installationId: body.installation,
      kind: body.token,
      by: actionCause(request, "Test button"),
    });
    throwIfRateLimited("auth.test", result);
    const answer: InstallationActionAnswer = { ok: result.ok, platform: result.body ?? null, refreshed, identity, installation };
    return Response.json(answer, { headers: { "x-upstream-time-ms": String(result.durationMs), "x-token-refreshed": refreshed ? "1" : "0" } });
  },
  { mutating: true },
);
