// GET /api/emulator/messages?channel=C… - A channel's latest messages in the embedded emulator (404 otherwise)
import { z } from "zod";
import { readEmulatorChannel } from "@/lib/webhooks/emulator-channels";
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";

export const dynamic = "force-dynamic";

const Query = z.object({ channel: z.string().regex(/^[A-Z0-9]{2,32}$/, "a channel id such as C0123ABCD") });

export const GET = handleRoute(async (request) => {
  const { channel } = parseQuery(request, Query);
  return Response.json(await readEmulatorChannel(channel), { headers: { "cache-control": "no-store" } });
});
