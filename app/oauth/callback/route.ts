// GET /oauth/callback - Checks and consumes the state, exchanges the code, stores the installation, 303 to the console (or, for someone outside the team, to /oauth/installed)
import { handleOpenRoute } from "@/lib/access/handle-route";
import { completeInstall } from "@/lib/oauth/install";
import { afterInstallLocation, callbackNextSteps } from "@/lib/oauth/outside-install";
import { renderCallbackErrorPage } from "./error-page";

export const dynamic = "force-dynamic";

export const GET = handleOpenRoute(
  async (request, _context, viewer) => {
    const outcome = await completeInstall(new URL(request.url).searchParams, viewer);
    if (!outcome.ok) return renderCallbackErrorPage(outcome.problem, await callbackNextSteps(outcome.appKey, viewer), outcome.detail, outcome.platformError);
    return new Response(null, { status: 303, headers: { location: await afterInstallLocation(outcome.installation, viewer), "cache-control": "no-store" } });
  },
  // A page the browser navigates to (from "Add to workspace", and back from the platform).
  { navigable: true },
);
