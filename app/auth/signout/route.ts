// POST /auth/signout - Ends the person's sign-in (on every instance, copies of the cookie included), 303 to the signed-out page
import { handleOpenRoute } from "@/lib/access/handle-route";
import { signOut } from "@/lib/signin/signed-in-cookie";
import { clearSignInStates } from "@/lib/signin/sign-in-state";

export const dynamic = "force-dynamic";

export const POST = handleOpenRoute(
  async () => {
    await signOut(Date.now());
    // Sign-ins started and never completed go too: nothing of the sign-in stays in this browser.
    await clearSignInStates();
    return new Response(null, { status: 303, headers: { location: "/auth/signed-out", "cache-control": "no-store" } });
  },
  // The header's Sign out button is a form the browser submits; another site's form cannot sign anyone out.
  { mutating: true, navigable: true },
);
