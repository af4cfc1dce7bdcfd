// POST /api/emulator/mention - Mention an installation's app in the embedded emulator, which sends it an app_mention
import { z } from "zod";
import { mentionInstallationApp } from "@/lib/events/mention-app";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const MentionRequest = z.object({
  installationId: z.string().min(1).max(64),
  text: z.string().trim().max(500).optional(),
});

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { installationId, text } = await parseJsonBody(request, MentionRequest);
    return Response.json(await mentionInstallationApp(viewer, installationId, text));
  },
  { mutating: true, maxBodyBytes: 4 * 1024 },
);
