// GET /api/me - Who is signed in in this browser (for the header), and whether the console signs people in
import { getConfig } from "@/lib/config";
import { handleRoute } from "@/lib/access/handle-route";
import { isAdmin } from "@/lib/viewer";
import type { MeAnswer } from "@/lib/signin/universal/person";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (_request, _context, viewer) => {
    const answer: MeAnswer = { authMode: getConfig().auth.mode, person: (await readSignedInPerson()) ?? null, admin: isAdmin(viewer) };
    return Response.json(answer);
  },
  // A person's name and email: only the console's own pages read them.
  { rejectCrossSite: true },
);
