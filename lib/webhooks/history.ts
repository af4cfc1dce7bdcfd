import "server-only";
import { z } from "zod";
import { deleteCookie, readSealedCookie } from "@/lib/http/sealed-cookie";
import { getStore } from "@/lib/store";
import { currentOwner } from "@/lib/access/viewer";

/** One send, as the history shows it: what was sent and what came back, never the URL. */
export interface WebhookSendRecord {
  id: string;
  webhookId: string;
  /** The webhook's label at the time of sending (its channel, or what the developer named it). */
  webhookLabel: string;
  sentAt: number;
  /** The start of the message text (or of the raw payload). */
  preview: string;
  /** The platform's HTTP status, or the proxy's own (400, 413, 502, 504) when there was no answer. */
  status: number;
  ok: boolean;
  /** The platform's plain-text answer, or the proxy's reason. */
  result: string;
  durationMs: number | null;
}

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
}) satisfies z.ZodType<{ entries: WebhookSendRecord[] }>;

/**
 * Moves the sends an earlier version sealed in this browser's cookie into the store (oldest first, so the
 * history keeps its order), then clears the cookie. A send the store already has (the same cookie sent by
 * two tabs) is not recorded twice.
 */
async function importLegacyHistory(): Promise<void> {
  const legacy = await readSealedCookie(LEGACY_HISTORY_COOKIE, legacyHistorySchema);
  if (!legacy) return;
  const store = await getStore();
  const known = new Set((await store.listWebhookSends(await currentOwner(), HISTORY_KEPT)).map((send) => send.id));
  for (const record of [...legacy.entries].reverse()) {
    if (!known.has(record.id)) await store.recordWebhookSend(await currentOwner(), shortenRecord(record), { keep: HISTORY_KEPT });
  }
  await deleteCookie(LEGACY_HISTORY_COOKIE);
}

/** The newest sends, newest first. */
export async function readSendHistory(): Promise<WebhookSendRecord[]> {
  await importLegacyHistory();
  return (await getStore()).listWebhookSends(await currentOwner(), HISTORY_SHOWN);
}

/** Records a send, its long texts cut short; the store keeps the newest HISTORY_KEPT. */
export async function recordSend(record: WebhookSendRecord): Promise<void> {
  await importLegacyHistory();
  await (await getStore()).recordWebhookSend(await currentOwner(), shortenRecord(record), { keep: HISTORY_KEPT });
}

function shortenRecord(record: WebhookSendRecord): WebhookSendRecord {
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
