// POST /api/app-config/token/generate - Embedded emulator only: issue a configuration token pair and seal it (never shown)
import { generateEmulatorConfigToken, getAppConfigRuntime } from "@/lib/app-config";
import type { ConfigTokenAnswer } from "@/lib/app-config/universal/types";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, _context, viewer) => {
    const answer: ConfigTokenAnswer = { ok: true, configToken: await generateEmulatorConfigToken(getAppConfigRuntime(viewer)) };
    return Response.json(answer);
  },
  { mutating: true },
);
