import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { MAX_SEALED_COOKIE_BYTES, readSealedCookie, sealedCookieBytes, writeSealedCookie } from "@/lib/session/sealed-cookie";
import { maskWebhookUrl } from "@/lib/platform/mask";
import { webhookUrlPolicy } from "./policy";
import { checkWebhookUrl } from "./url-guard";

/**
 * Webhooks the developer pasted, sealed in their own cookie: the URLs are secrets, so they live only
 * there and leave the server only masked. The browser names a webhook by an opaque id.
 */
const PASTED_COOKIE = "sb_webhooks";
const PASTED_MAX_AGE_S = 30 * 24 * 3600;
/**
 * A sealed cookie holds about 4 KB. Five webhooks fit in it whatever their labels, as long as each URL and
 * label keeps to the limits below (measured sealed: five 160-character URLs with 60-character Japanese
 * labels take about 3 KB). The platform's webhook URLs are about 80 characters. The cap also keeps the whole
 * Cookie header (four installations, this, the send history and pending OAuth states) under Node's 16 KB.
 */
export const MAX_PASTED_WEBHOOKS = 5;
export const MAX_PASTED_URL_CHARS = 160;
/** At most 180 bytes in UTF-8 once control characters are gone (three bytes a character, or four a pair). */
export const MAX_LABEL_CHARS = 60;

export interface PastedWebhook {
  id: string;
  url: string;
  label: string;
  addedAt: number;
}

interface PastedCookie {
  hooks: PastedWebhook[];
}

const pastedCookieSchema = z.object({
  hooks: z.array(z.object({ id: z.string(), url: z.string(), label: z.string(), addedAt: z.number() })),
}) satisfies z.ZodType<PastedCookie>;

export async function readPastedWebhooks(): Promise<PastedWebhook[]> {
  return (await readSealedCookie(PASTED_COOKIE, pastedCookieSchema))?.hooks ?? [];
}

async function writePastedWebhooks(hooks: PastedWebhook[]): Promise<void> {
  await writeSealedCookie(PASTED_COOKIE, { hooks } satisfies PastedCookie, PASTED_MAX_AGE_S);
}

/**
 * Checks a pasted URL with the SSRF guard (400 with the reason) and keeps it sealed. The size is checked
 * before writing, so a full cookie answers a 409 that says what to do rather than failing to be written.
 */
export async function addPastedWebhook(url: string, label: string): Promise<PastedWebhook> {
  const check = checkWebhookUrl(url, webhookUrlPolicy());
  if (!check.ok) throw new AppError("invalid_webhook_url", { message: check.reason });
  if (url.length > MAX_PASTED_URL_CHARS) {
    throw new AppError("invalid_webhook_url", {
      message: `A pasted webhook URL may be at most ${MAX_PASTED_URL_CHARS} characters (the platform's are about 80), so that ${MAX_PASTED_WEBHOOKS} fit in the session.`,
    });
  }
  const hooks = await readPastedWebhooks();
  const existing = hooks.find((h) => h.url === url);
  if (existing) return existing;
  const full = () => new AppError("too_many_webhooks", { message: `At most ${MAX_PASTED_WEBHOOKS} pasted webhooks fit in the session: remove one first.` });
  if (hooks.length >= MAX_PASTED_WEBHOOKS) throw full();
  const hook: PastedWebhook = {
    id: `wh_${randomBytes(9).toString("base64url")}`,
    url,
    label: displayLabel(label) || maskWebhookUrl(url),
    addedAt: Date.now(),
  };
  const kept = [...hooks, hook];
  // Only webhooks pasted before these limits existed can make it this large.
  if ((await sealedCookieBytes(PASTED_COOKIE, { hooks: kept } satisfies PastedCookie, PASTED_MAX_AGE_S)) > MAX_SEALED_COOKIE_BYTES) throw full();
  await writePastedWebhooks(kept);
  return hook;
}

/**
 * A label is a name to show: control characters (which JSON would store as six bytes each) become spaces,
 * and a lone surrogate U+FFFD, so a label of at most 60 characters takes at most 180 bytes.
 */
function displayLabel(label: string): string {
  return label
    .replace(/[\p{Cc}\s]+/gu, " ")
    .replace(/\p{Cs}/gu, "\uFFFD")
    .trim();
}

/** Forgets a pasted webhook; false when there was none with that id. */
export async function removePastedWebhook(id: string): Promise<boolean> {
  const hooks = await readPastedWebhooks();
  const kept = hooks.filter((h) => h.id !== id);
  if (kept.length === hooks.length) return false;
  await writePastedWebhooks(kept);
  return true;
}
