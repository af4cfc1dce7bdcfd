// GET /api/emulator/messages?channel=C…&team=T… - A channel's latest messages in the emulator (embedded, or standalone through PLATFORM_BASE_URL), in the workspace team names (404 not_emulator against the platform)
import { z } from "zod";
import { readEmulatorChannel } from "@/lib/webhooks/emulator-channels";
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

const Query = z.object({
  channel: z.string().regex(/^[A-Z0-9]{2,32}$/, "a channel id such as C0123ABCD"),
  team: z
    .string()
    .regex(/^[TE][A-Z0-9]{2,32}$/, "a workspace id such as T0123ABCD")
    .optional(),
});

export const GET = handleRoute(async (request, _context, viewer) => {
  const { channel, team } = parseQuery(request, Query);
  return Response.json(await readEmulatorChannel(viewer, channel, team), { headers: { "cache-control": "no-store" } });
});
