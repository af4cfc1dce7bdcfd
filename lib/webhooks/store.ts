import "server-only";
import type { Viewer } from "@/lib/viewer";
import { ownerOf, readableOwners } from "@/lib/access/viewer";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { maskWebhookUrl } from "@/lib/platform/mask";
import { deleteCookie, readSealedCookie } from "@/lib/http/sealed-cookie";
import { getStore } from "@/lib/store";
import { webhookUrlPolicy } from "./policy";
import { checkWebhookUrl } from "./url-guard";

/**
 * Webhooks the developer pasted, kept in the server's store (the URL sealed there, lib/store) and owned by
 * whoever pasted them. The URLs are secrets: they leave the server only masked, and the browser names a
 * webhook by an opaque id.
 */

// A pasted webhook belongs to whoever pasted it (lib/access ownerOf: the member signed in, or null for the
// operator); admins read, send through and remove everyone's (readableOwners). Each function is handed the viewer.

/**
 * A bound against abuse (a script pasting without end fills the database and the page's list), not a size
 * budget: far more than a person keeps at hand, since every pasted webhook is listed on the page.
 */
export const MAX_PASTED_WEBHOOKS = 100;
/** A label is a name on a list: at most 60 characters, control characters made spaces. */
export const MAX_LABEL_CHARS = 60;

export interface PastedWebhook {
  id: string;
  url: string;
  label: string;
  addedAt: number;
}

/** The cookie earlier versions sealed pasted webhooks in (iron-session), imported into the store when it comes back. */
export const LEGACY_PASTED_COOKIE = "sb_webhooks";

const legacyPastedSchema = z.object({
  hooks: z.array(z.object({ id: z.string(), url: z.string(), label: z.string(), addedAt: z.number() })),
});

/**
 * Moves the webhooks an earlier version sealed in this browser's cookie into the store, then clears the
 * cookie: an upgrade loses none of them. The same URL pasted in two browsers is kept once (the store finds a
 * repeat paste by the URL's hash), and an id another webhook already holds gets a new one. A cookie that does
 * not unseal (tampered, or sealed with a password no longer configured) is cleared, as it always was.
 */
async function importLegacyPastedWebhooks(viewer: Viewer): Promise<void> {
  const legacy = await readSealedCookie(LEGACY_PASTED_COOKIE, legacyPastedSchema);
  if (!legacy) return;
  const store = await getStore();
  for (const hook of legacy.hooks) {
    const label = displayLabel(hook.label).slice(0, MAX_LABEL_CHARS) || maskWebhookUrl(hook.url);
    const kept = { owner: ownerOf(viewer), url: hook.url, label, maskedUrl: maskWebhookUrl(hook.url), createdAt: hook.addedAt };
    try {
      await store.webhooks.add({ ...kept, id: hook.id });
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The id is another webhook's (another browser's cookie): the store gives this one an id of its own.
      await store.webhooks.add(kept);
    }
  }
  // Cleared only once every webhook it held is in the store: a failed import leaves it for the next request.
  await deleteCookie(LEGACY_PASTED_COOKIE);
}

export async function readPastedWebhooks(viewer: Viewer): Promise<PastedWebhook[]> {
  await importLegacyPastedWebhooks(viewer);
  const hooks = await (await getStore()).webhooks.list(readableOwners(viewer));
  return hooks.map((hook) => ({ id: hook.id, url: hook.url, label: hook.label, addedAt: hook.createdAt }));
}

/**
 * Checks a pasted URL with the SSRF guard (400 with the reason) and keeps it sealed in the store. The same
 * URL pasted again answers the webhook kept; past MAX_PASTED_WEBHOOKS, 409 `too_many_webhooks`.
 */
/** One pasted webhook of this request's owner, or null (an id of another owner names none). */
export async function readPastedWebhook(viewer: Viewer, id: string): Promise<PastedWebhook | null> {
  await importLegacyPastedWebhooks(viewer);
  const hook = await (await getStore()).webhooks.get(readableOwners(viewer), id);
  return hook ? { id: hook.id, url: hook.url, label: hook.label, addedAt: hook.createdAt } : null;
}

export async function addPastedWebhook(viewer: Viewer, url: string, label: string): Promise<PastedWebhook> {
  const check = checkWebhookUrl(url, await webhookUrlPolicy());
  if (!check.ok) throw new AppError("invalid_webhook_url", { message: check.reason });
  const hooks = await readPastedWebhooks(viewer);
  const existing = hooks.find((h) => h.url === url);
  if (existing) return existing;
  if (hooks.length >= MAX_PASTED_WEBHOOKS) {
    throw new AppError("too_many_webhooks", { message: `At most ${MAX_PASTED_WEBHOOKS} pasted webhooks are kept: remove one first.` });
  }
  const kept = await (
    await getStore()
  ).webhooks.add({
    owner: ownerOf(viewer),
    url,
    label: displayLabel(label) || maskWebhookUrl(url),
    maskedUrl: maskWebhookUrl(url),
    createdAt: Date.now(),
  });
  return { id: kept.id, url: kept.url, label: kept.label, addedAt: kept.createdAt };
}

/**
 * A label is a name to show: control characters become spaces and a lone surrogate U+FFFD, so what the
 * list shows is what was typed, on one line.
 */
function displayLabel(label: string): string {
  return label
    .replace(/[\p{Cc}\s]+/gu, " ")
    .replace(/\p{Cs}/gu, "\uFFFD")
    .trim();
}

/** Forgets a pasted webhook; false when there was none with that id. */
export async function removePastedWebhook(viewer: Viewer, id: string): Promise<boolean> {
  await importLegacyPastedWebhooks(viewer);
  return (await getStore()).webhooks.remove(readableOwners(viewer), id);
}
