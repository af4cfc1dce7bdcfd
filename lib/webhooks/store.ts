import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { readSealedCookie, writeSealedCookie } from "@/lib/session/sealed-cookie";
import { maskWebhookUrl } from "@/lib/platform/mask";
import { webhookUrlPolicy } from "./policy";
import { checkWebhookUrl } from "./url-guard";

/**
 * Webhooks the developer pasted, sealed in their own cookie: the URLs are secrets, so they live only
 * there and leave the server only masked. The browser names a webhook by an opaque id.
 */
const PASTED_COOKIE = "sb_webhooks";
const PASTED_MAX_AGE_S = 30 * 24 * 3600;
/** A sealed cookie holds about 4 KB: a handful of URLs with their labels. */
export const MAX_PASTED_WEBHOOKS = 5;

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

/** Checks a pasted URL with the SSRF guard (400 with the reason) and keeps it sealed. */
export async function addPastedWebhook(url: string, label: string): Promise<PastedWebhook> {
  const check = checkWebhookUrl(url, webhookUrlPolicy());
  if (!check.ok) throw new AppError("invalid_webhook_url", 400, check.reason);
  const hooks = await readPastedWebhooks();
  const existing = hooks.find((h) => h.url === url);
  if (existing) return existing;
  if (hooks.length >= MAX_PASTED_WEBHOOKS) {
    throw new AppError("too_many_webhooks", 409, `At most ${MAX_PASTED_WEBHOOKS} pasted webhooks fit in the session: remove one first.`);
  }
  const hook: PastedWebhook = {
    id: `wh_${randomBytes(9).toString("base64url")}`,
    url,
    label: label || maskWebhookUrl(url),
    addedAt: Date.now(),
  };
  await writePastedWebhooks([...hooks, hook]);
  return hook;
}

/** Forgets a pasted webhook; false when there was none with that id. */
export async function removePastedWebhook(id: string): Promise<boolean> {
  const hooks = await readPastedWebhooks();
  const kept = hooks.filter((h) => h.id !== id);
  if (kept.length === hooks.length) return false;
  await writePastedWebhooks(kept);
  return true;
}
