// POST /api/webhooks/send - Post a message through a session webhook via the hardened proxy
import { z } from "zod";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { MAX_WEBHOOK_BODY_BYTES } from "@/lib/webhooks/send";
import { sendWebhookMessage } from "@/lib/webhooks/service";

export const dynamic = "force-dynamic";

const SendRequest = z.union([
  z.object({ webhookId: z.string().min(1).max(80), text: z.string().min(1, "write a message") }).strict(),
  z.object({ webhookId: z.string().min(1).max(80), payload: z.string().min(1, "write a JSON payload") }).strict(),
]);

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { webhookId, ...message } = await parseJsonBody(request, SendRequest);
    return Response.json(await sendWebhookMessage(viewer, webhookId, message));
  },
  // Room for a 40 KB payload inside the JSON envelope: the proxy answers 413 itself above 40 KB.
  { mutating: true, maxBodyBytes: MAX_WEBHOOK_BODY_BYTES * 2 + 1024 },
);
