// POST /api/tokens/test - auth.test with an installation's bot or user token (kept fresh)
import { handleRoute, parseJsonBody, TokenActionSchema } from "@/lib/http";
import { throwIfRateLimited } from "@/lib/platform";
import { callAsInstallation } from "@/lib/session";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (request) => {
    const body = await parseJsonBody(request, TokenActionSchema);
    const result = await callAsInstallation({ installationId: body.installation, tokenKind: body.token, method: "auth.test" });
    throwIfRateLimited("auth.test", result);
    return Response.json(
      { ok: result.ok, platform: result.body ?? null, refreshed: result.refreshed },
      { headers: { "x-upstream-time-ms": String(result.durationMs), "x-token-refreshed": result.refreshed ? "1" : "0" } },
    );
  },
  { mutating: true },
);
