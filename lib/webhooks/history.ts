import "server-only";
import { z } from "zod";
import { readSealedCookie, sealedCookieBytes, writeSealedCookie } from "@/lib/session/sealed-cookie";

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

const HISTORY_COOKIE = "sb_webhook_history";
const HISTORY_MAX_AGE_S = 7 * 24 * 3600;
/** The most sends kept; fewer when long non-ASCII texts need the room. */
export const HISTORY_LENGTH = 6;
/**
 * The history's share of the Cookie header, counted as the browser stores it (name and sealed value). The
 * whole header must stay below Node's 16 KB (see lib/installations/store.ts, which counts 2.8 KB for the
 * history), so the history keeps to that rather than to the 4 KB one cookie could take.
 */
export const HISTORY_MAX_COOKIE_BYTES = 2800;

/**
 * Each text is cut to a number of characters and of UTF-8 bytes: a Japanese character takes three bytes,
 * an emoji four. At these sizes one entry, even of escaped characters, takes well under the history's share.
 */
const PREVIEW = { chars: 48, bytes: 96 };
const LABEL = { chars: 60, bytes: 96 };
const RESULT = { chars: 80, bytes: 120 };
const ELLIPSIS_BYTES = Buffer.byteLength("…", "utf8");

interface HistoryCookie {
  entries: WebhookSendRecord[];
}

const historyCookieSchema = z.object({
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
}) satisfies z.ZodType<HistoryCookie>;

export async function readSendHistory(): Promise<WebhookSendRecord[]> {
  return (await readSealedCookie(HISTORY_COOKIE, historyCookieSchema))?.entries ?? [];
}

/**
 * Adds a send to the front of the history, with long texts cut short, and drops the oldest entries until
 * the sealed cookie fits its share. A lone entry always fits, so this does not fail for size.
 */
export async function recordSend(record: WebhookSendRecord): Promise<WebhookSendRecord[]> {
  const entries = [record, ...(await readSendHistory())].slice(0, HISTORY_LENGTH).map(shortenRecord);
  while (entries.length > 1 && (await sealedCookieBytes(HISTORY_COOKIE, { entries } satisfies HistoryCookie, HISTORY_MAX_AGE_S)) > HISTORY_MAX_COOKIE_BYTES) {
    entries.pop();
  }
  await writeSealedCookie(HISTORY_COOKIE, { entries } satisfies HistoryCookie, HISTORY_MAX_AGE_S);
  return entries;
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
