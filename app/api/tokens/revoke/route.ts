// POST /api/tokens/revoke - auth.revoke on an installation's bot or user access token
import { handleRoute, parseJsonBody, TokenActionSchema } from "@/lib/http";
import { throwIfRateLimited } from "@/lib/platform";
import { revokeSessionToken } from "@/lib/session";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request) => {
    const body = await parseJsonBody(request, TokenActionSchema);
    const { result, installation } = await revokeSessionToken(body.installation, body.token, "Revoke button");
    throwIfRateLimited("auth.revoke", result);
    return Response.json({ ok: result.ok, platform: result.body ?? null, installation }, { headers: { "x-upstream-time-ms": String(result.durationMs) } });
  },
  { mutating: true },
);
