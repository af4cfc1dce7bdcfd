// GET, POST /api/api-keys - The token API's keys: listed, and created (shown once) by an admin
import { z } from "zod";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { createApiKey, listApiKeys } from "@/lib/token-api/keys";

export const dynamic = "force-dynamic";

const TEAM_ID = /^[TE][A-Z0-9]{1,31}$/;

const NewKeySchema = z.object({
  name: z.string().trim().min(1, "name it (what uses it: 'billing worker')").max(80),
  app: z.enum(["console", "legacy"]).default("console"),
  appId: z
    .string()
    .regex(/^A[A-Z0-9]{1,31}$/, "must be an app id (A…)")
    .optional(),
  /** Workspaces (or organisations) it may ask for; none: every one. */
  teamIds: z.array(z.string().regex(TEAM_ID, "must be a workspace id (T…) or an organisation id (E…)")).max(100).optional(),
});

export const GET = handleRoute(
  async (_request, _context, viewer) => Response.json({ ok: true, apiKeys: await listApiKeys(viewer) }, { headers: { "cache-control": "no-store" } }),
  {
    rejectCrossSite: true,
  },
);

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const body = await parseJsonBody(request, NewKeySchema);
    const created = await createApiKey(viewer, {
      name: body.name,
      appKey: body.app,
      ...(body.appId ? { appId: body.appId } : {}),
      teamIds: body.teamIds && body.teamIds.length > 0 ? body.teamIds : null,
    });
    // The key in clear, this once: the store keeps only its hash.
    return Response.json({ ok: true, ...created }, { status: 201, headers: { "cache-control": "no-store" } });
  },
  { mutating: true },
);
