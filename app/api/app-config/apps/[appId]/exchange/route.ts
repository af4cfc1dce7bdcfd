// POST /api/app-config/apps/{appId}/exchange - Migration guide: exchange one long-lived token, then auth.test the original
import { z } from "zod";
import { exchangeForMigration, getAppConfigRuntime } from "@/lib/app-config";
import { appIdParam } from "@/lib/app-config/route-schemas";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { InstallationIdSchema, TokenKindSchema } from "@/lib/installations/route-schemas";

export const dynamic = "force-dynamic";

const Body = z.object({
  installation: InstallationIdSchema,
  token: TokenKindSchema,
  confirm: z.literal(true, { error: "confirm the exchange: the original token stops working and must not be revoked afterwards" }),
});

export const POST = handleRoute(
  async (request, context, viewer) => {
    const appId = await appIdParam(context);
    const body = await parseJsonBody(request, Body);
    return Response.json(await exchangeForMigration(appId, body.installation, body.token, getAppConfigRuntime(viewer)));
  },
  { mutating: true },
);
