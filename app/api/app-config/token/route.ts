// POST /api/app-config/token - Paste an app configuration token pair (rotated at once, then sealed); DELETE - forget it
import { z } from "zod";
import { forgetConfigToken, getAppConfigRuntime, pasteConfigToken } from "@/lib/app-config";
import type { ConfigTokenAnswer } from "@/lib/app-config/universal/types";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

const Body = z.object({
  token: z
    .string()
    .trim()
    .regex(/^xoxe\.xoxp-[A-Za-z0-9-]{8,300}$/, "an app configuration token (xoxe.xoxp-…)"),
  refreshToken: z
    .string()
    .trim()
    .regex(/^xoxe-[A-Za-z0-9-]{8,300}$/, "its refresh token (xoxe-…)"),
});

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { token, refreshToken } = await parseJsonBody(request, Body);
    const answer: ConfigTokenAnswer = { ok: true, configToken: await pasteConfigToken(token, refreshToken, getAppConfigRuntime(viewer)) };
    return Response.json(answer);
  },
  { mutating: true, maxBodyBytes: 4 * 1024 },
);

export const DELETE = handleRoute(
  async (_request, _context, viewer) => {
    await forgetConfigToken(getAppConfigRuntime(viewer));
    return Response.json({ ok: true });
  },
  { mutating: true },
);
