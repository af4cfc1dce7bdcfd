// POST /api/emulator/mention - Mention an installation's app in the embedded emulator, which sends it an app_mention
import { z } from "zod";
import { AppError, handleRoute } from "@/lib/http";
import { mentionAppInEmulator } from "@/lib/events/emulator-admin";
import { requireInstallation } from "@/lib/session/installation-store";

export const dynamic = "force-dynamic";

const MentionRequest = z.object({
  installationId: z.string().min(1).max(64),
  text: z.string().trim().max(500).optional(),
});

export const POST = handleRoute(
  async (request) => {
    const { installationId, text } = MentionRequest.parse(await request.json().catch(() => null));
    const installation = await requireInstallation(installationId);
    if (!installation.appId) throw new AppError("unknown_app", 409, "This installation does not record its app id: reinstall it.");
    return Response.json(await mentionAppInEmulator(installation.appId, text));
  },
  { mutating: true, maxBodyBytes: 4 * 1024 },
);
