// GET /api/emulator/records?team=T… - The emulator's records (embedded, or standalone through PLATFORM_BASE_URL) of its deliveries and interactions, newest first (404 not_emulator otherwise)
import { z } from "zod";
import { readRecordsFor } from "@/lib/events/emulator-records";
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { requireWorkspaceEmulator } from "@/lib/workspace-page/target";

export const dynamic = "force-dynamic";

const Query = z.object({
  team: z
    .string()
    .regex(/^[TE][A-Z0-9]{2,32}$/, "a workspace id such as T0123ABCD")
    .optional(),
});

// Payloads of a workspace's messages: refused to other sites, as the settings read is.
export const GET = handleRoute(
  async (request, _context, viewer) => {
    const { team } = parseQuery(request, Query);
    return Response.json(await readRecordsFor(viewer, await requireWorkspaceEmulator(), team), { headers: { "cache-control": "no-store" } });
  },
  { rejectCrossSite: true },
);
