// GET /api/webhooks - The console's webhooks (masked, by opaque id) and the newest sends
// POST /api/webhooks - Paste a webhook URL: checked by the SSRF guard, then kept sealed in the store
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { parseJsonBody } from "@/lib/http";
import { handleRoute } from "@/lib/access/handle-route";
import { readSendHistory } from "@/lib/webhooks/history";
import { listWebhookViews, pastedWebhookView } from "@/lib/webhooks/service";
import { addPastedWebhook, MAX_LABEL_CHARS } from "@/lib/webhooks/store";
import type { PastedWebhookAnswer, WebhookListResponse } from "@/lib/webhooks/universal/types";

export const dynamic = "force-dynamic";

export const GET = handleRoute(async (_request, _context, viewer) => {
  const body: WebhookListResponse = {
    webhooks: await listWebhookViews(viewer),
    history: await readSendHistory(viewer),
    emulator: getConfig().upstream.kind === "emulator",
  };
  return Response.json(body, { headers: { "cache-control": "no-store" } });
});

// Whitespace around a paste (a copied line break) is dropped; the URL guard judges the rest as typed,
// empty and over-long included, so every refusal is a 400 with its reason.
const PasteWebhook = z.object({
  url: z.string().trim(),
  label: z.string().trim().max(MAX_LABEL_CHARS, `a label is at most ${MAX_LABEL_CHARS} characters`).default(""),
});

export const POST = handleRoute(
  async (request, _context, viewer) => {
    const { url, label } = await parseJsonBody(request, PasteWebhook);
    const answer: PastedWebhookAnswer = { webhook: pastedWebhookView(await addPastedWebhook(viewer, url, label)) };
    return Response.json(answer, { status: 201 });
  },
  { mutating: true, maxBodyBytes: 8 * 1024 },
);
