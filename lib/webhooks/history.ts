import "server-only";
import { z } from "zod";
import { deleteCookie, readSealedCookie } from "@/lib/http/sealed-cookie";
import { getStore, type WebhookSend } from "@/lib/store";
import type { Viewer } from "@/lib/viewer";
import { ownerOf } from "@/lib/access/viewer";

/** How many sends the store keeps per owner, and how many GET /api/webhooks shows of them. */
export const HISTORY_KEPT = 200;
export const HISTORY_SHOWN = 50;

/**
 * Each text is cut to a number of characters and of UTF-8 bytes (a Japanese character takes three, an
 * emoji four): the history shows the start of each message, so a 40 KB payload is not kept 200 times over.
 */
const PREVIEW = { chars: 48, bytes: 96 };
const LABEL = { chars: 60, bytes: 96 };
const RESULT = { chars: 80, bytes: 120 };
const ELLIPSIS_BYTES = Buffer.byteLength("…", "utf8");

/** The cookie earlier versions sealed the send history in, imported into the store when it comes back. */
export const LEGACY_HISTORY_COOKIE = "sb_webhook_history";

const legacyHistorySchema = z.object({
  entries: z.array(
    z.object({
      id: z.string(),
      webhookId: z.string(),
      webhookLabel: z.string(),
      sentAt: z.number(),
      preview: z.string(),
      status: z.number(),
      ok: z.boolean(),
      result: z.string(),
      durationMs: z.number().nullable(),
    }),
  ),
}) satisfies z.ZodType<{ entries: WebhookSend[] }>;

/**
 * Moves the sends an earlier version sealed in this browser's cookie into the store (oldest first, so the
 * history keeps its order), then clears the cookie. A send the store already has (the same cookie sent by
 * two tabs) is not recorded twice.
 */
async function importLegacyHistory(owner: string | null): Promise<void> {
  const legacy = await readSealedCookie(LEGACY_HISTORY_COOKIE, legacyHistorySchema);
  if (!legacy) return;
  const store = await getStore();
  const known = new Set((await store.webhooks.listSends(owner, HISTORY_KEPT)).map((send) => send.id));
  for (const record of [...legacy.entries].reverse()) {
    if (!known.has(record.id)) await store.webhooks.recordSend(owner, shortenRecord(record), { keep: HISTORY_KEPT });
  }
  await deleteCookie(LEGACY_HISTORY_COOKIE);
}

/** The viewer's newest sends, newest first. */
export async function readSendHistory(viewer: Viewer): Promise<WebhookSend[]> {
  const owner = ownerOf(viewer);
  await importLegacyHistory(owner);
  return (await getStore()).webhooks.listSends(owner, HISTORY_SHOWN);
}

/** Records a send, its long texts cut short; the store keeps the newest HISTORY_KEPT. */
export async function recordSend(viewer: Viewer, record: WebhookSend): Promise<void> {
  const owner = ownerOf(viewer);
  await importLegacyHistory(owner);
  await (await getStore()).webhooks.recordSend(owner, shortenRecord(record), { keep: HISTORY_KEPT });
}

function shortenRecord(record: WebhookSend): WebhookSend {
  return {
    ...record,
    webhookLabel: clip(record.webhookLabel, LABEL),
    preview: clip(record.preview, PREVIEW),
    result: clip(record.result, RESULT),
  };
}

/**
 * Whitespace runs become one space and a lone surrogate U+FFFD; a longer text is cut between characters
 * (never inside one) and ends in "…".
 */
function clip(text: string, max: { chars: number; bytes: number }): string {
  const flat = text
    .replace(/\s+/g, " ")
    .replace(/\p{Cs}/gu, "\uFFFD")
    .trim();
  const characters = Array.from(flat);
  if (characters.length <= max.chars && Buffer.byteLength(flat, "utf8") <= max.bytes) return flat;
  let kept = "";
  let bytes = ELLIPSIS_BYTES;
  for (const character of characters.slice(0, max.chars - 1)) {
    bytes += Buffer.byteLength(character, "utf8");
    if (bytes > max.bytes) break;
    kept += character;
  }
  return `${kept}…`;
}
