// GET /auth/signin - "Sign in with" the platform: 302 to the issuer's authorize URL, with a state and a nonce bound to this browser
import { handleOpenRoute } from "@/lib/access/handle-route";
import { beginSignIn } from "@/lib/signin/begin-sign-in";

export const dynamic = "force-dynamic";

export const GET = handleOpenRoute(
  async (request) => {
    const location = await beginSignIn(new URL(request.url).searchParams.get("next"));
    return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
  },
  // A page the browser navigates to (the sign-in gate sends it here, and so does "Sign in again").
  { navigable: true },
);
