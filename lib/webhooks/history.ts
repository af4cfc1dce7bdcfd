import "server-only";
import { z } from "zod";
import { readSealedCookie, writeSealedCookie } from "@/lib/session/sealed-cookie";

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
/** Kept small: the history shares the browser's cookie budget with the session. */
export const HISTORY_LENGTH = 6;
const PREVIEW_CHARS = 48;
const RESULT_CHARS = 80;

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

/** Adds a send to the front of the history, keeping the last few, with long texts cut short. */
export async function recordSend(record: WebhookSendRecord): Promise<WebhookSendRecord[]> {
  const entry: WebhookSendRecord = {
    ...record,
    preview: clip(record.preview, PREVIEW_CHARS),
    result: clip(record.result, RESULT_CHARS),
  };
  const entries = [entry, ...(await readSendHistory())].slice(0, HISTORY_LENGTH);
  await writeSealedCookie(HISTORY_COOKIE, { entries } satisfies HistoryCookie, HISTORY_MAX_AGE_S);
  return entries;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
