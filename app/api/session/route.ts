// GET /api/session - This browser's installations: tokens masked, expiry, scopes, state, timeline
import { getConfig } from "@/lib/config";
import { handleRoute } from "@/lib/http";
import { getConsoleSessionViews, MAX_INSTALLATIONS } from "@/lib/session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async () => {
    const { upstream, refreshWindowS } = getConfig();
    const installations = await getConsoleSessionViews();
    return Response.json(
      { ok: true, upstream, installations, maxInstallations: MAX_INSTALLATIONS, refreshWindowS, serverTime: Date.now() },
      { headers: { "cache-control": "no-store" } },
    );
  },
  { rejectCrossSite: true },
);
