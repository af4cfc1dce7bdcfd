// GET /oauth/install - "Add to workspace": 302 to the platform's authorize URL, with a state bound to this browser
import { z } from "zod";
import { handleOpenRoute } from "@/lib/access/handle-route";
import { APP_KEYS } from "@/lib/installations/universal/view";
import { beginInstall } from "@/lib/oauth/install";
import { signedInTeam } from "@/lib/oauth/outside-install";

export const dynamic = "force-dynamic";

const scopeList = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9:._,\s-]*$/, "scopes are names separated by commas")
  .max(2000);
const Query = z.object({
  scope: scopeList.optional(),
  user_scope: scopeList.optional(),
  team: z
    .string()
    .regex(/^[A-Za-z0-9]{1,32}$/, "a team id such as T0123ABCD")
    .optional(),
  app: z.enum(APP_KEYS).optional(),
});

export const GET = handleOpenRoute(
  async (request, _context, viewer) => {
    const q = Query.parse(Object.fromEntries(new URL(request.url).searchParams));
    // A signed-in member installs into their own workspace unless the link names one (a reinstall does).
    const team = q.team ?? signedInTeam(viewer);
    const location = await beginInstall(
      {
        ...(q.scope !== undefined ? { scope: q.scope } : {}),
        ...(q.user_scope !== undefined ? { userScope: q.user_scope } : {}),
        ...(team ? { team } : {}),
        ...(q.app ? { app: q.app } : {}),
      },
      viewer,
    );
    return new Response(null, { status: 302, headers: { location, "cache-control": "no-store" } });
  },
  // A page the browser navigates to (from "Add to workspace", and back from the platform).
  { navigable: true },
);
