// GET /auth/signed-out - Where sign-out lands: a page of its own with "Sign in again"
import { handleOpenRoute } from "@/lib/access/handle-route";
import { renderSignedOutPage } from "@/lib/signin/sign-in-pages";

export const dynamic = "force-dynamic";

export const GET = handleOpenRoute(() => renderSignedOutPage(), { navigable: true });
