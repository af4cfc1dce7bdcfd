// POST /api/tokens/exchange - oauth.v2.exchange of a long-lived token (an installation's, or a pasted one)
import { z } from "zod";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { exchangeSessionToken } from "@/lib/installations/actions/exchange-token";
import { type InstallationActionAnswer } from "@/lib/installations/universal/view";
import { appKeySchema } from "@/lib/installations/record";
import { InstallationIdSchema, TokenKindSchema } from "@/lib/installations/route-schemas";
import { actionCause } from "@/lib/console-request";

export const dynamic = "force-dynamic";

// The original token stops working once exchanged, so the caller must say it understood.
const confirmed = z.literal(true, { error: "confirm the exchange: the original token stops working and must not be revoked afterwards" });
const Body = z
  .object({
    confirm: confirmed,
    installation: InstallationIdSchema.optional(),
    token: TokenKindSchema.default("bot"),
    pastedToken: z
      .string()
      .trim()
      .regex(/^xox[bp]-[A-Za-z0-9-]{8,250}$/, "a long-lived bot (xoxb-…) or user (xoxp-…) token")
      .optional(),
    app: appKeySchema.default("console"),
  })
  .refine((b) => (b.installation === undefined) !== (b.pastedToken === undefined), "give either an installation or a pastedToken");

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const body = await parseJsonBody(request, Body);
    const installation = body.installation
      ? await exchangeSessionToken({
          viewer,
          request: { installationId: body.installation, tokenKind: body.token },
          by: actionCause(request, "Exchange button"),
        })
      : await exchangeSessionToken({ viewer, request: { pastedToken: body.pastedToken ?? "", appKey: body.app }, by: "Exchange a long-lived token (pasted)" });
    return Response.json({ ok: true, installation } satisfies InstallationActionAnswer);
  },
  { mutating: true },
);
