// GET /auth/callback - Checks and consumes the sign-in state, exchanges the code, verifies the ID token, 303 back to the console
import { handleOpenRoute } from "@/lib/access/handle-route";
import { completeSignIn } from "@/lib/signin/complete-sign-in";
import { renderSignInErrorPage } from "@/lib/signin/sign-in-pages";

export const dynamic = "force-dynamic";

export const GET = handleOpenRoute(
  async (request) => {
    const outcome = await completeSignIn(new URL(request.url).searchParams);
    if (!outcome.ok) return renderSignInErrorPage(outcome.problem, outcome.detail, outcome.platformError);
    return new Response(null, { status: 303, headers: { location: outcome.returnTo, "cache-control": "no-store" } });
  },
  // The platform sends the browser back here.
  { navigable: true },
);
