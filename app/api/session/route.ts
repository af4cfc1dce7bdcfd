// GET /api/session - This browser's installations: tokens masked, expiry, scopes, state, timeline
import { handleRoute } from "@/lib/http";
import { getConsoleSession } from "@/lib/session/console-session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(async () => Response.json(await getConsoleSession(), { headers: { "cache-control": "no-store" } }), { rejectCrossSite: true });
