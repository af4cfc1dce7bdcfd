// POST /api/app-config/token/rotate - tooling.tokens.rotate now: a new configuration token pair replaces the kept one
import { getAppConfigRuntime, rotateConfigTokenNow } from "@/lib/app-config";
import type { ConfigTokenAnswer } from "@/lib/app-config/universal/types";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const POST = handleRoute(
  async (_request, _context, viewer) => {
    const answer: ConfigTokenAnswer = { ok: true, configToken: await rotateConfigTokenNow(getAppConfigRuntime(viewer)) };
    return Response.json(answer);
  },
  { mutating: true },
);
