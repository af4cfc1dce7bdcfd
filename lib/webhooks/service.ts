import "server-only";
import { randomBytes } from "node:crypto";
import { getConfig } from "@/lib/config";
import { readEmulatorWebhookChannels } from "./emulator-channels";
import { upstreamEmulator } from "@/lib/upstream-emulator";
import { AppError } from "@/lib/http/app-error";
import { logger } from "@/lib/log";
import { findInstallation } from "@/lib/installations/repository";
import { canSee } from "@/lib/installations/universal/rights";
import { listVisibleInstallations } from "@/lib/installations/visibility";
import type { Viewer } from "@/lib/viewer";
import type { InstallationRecord } from "@/lib/installations/record";
import { installationName } from "@/lib/installations/universal/view";
import type { WebhookSend } from "@/lib/store";
import { recordSend } from "./history";
import { maskWebhookUrl } from "@/lib/platform/mask";
import { webhookUrlPolicy } from "./policy";
import { sendToWebhook, webhookTimeoutMs } from "./send";
import { readPastedWebhook, readPastedWebhooks, type PastedWebhook } from "./store";
import type { WebhookSendResponse, WebhookView } from "./universal/types";

const INSTALLATION_PREFIX = "inst-";

interface ResolvedWebhook {
  view: WebhookView;
  /** The secret URL: used to send, never returned. */
  url: string;
}

function fromInstallation(installation: InstallationRecord): ResolvedWebhook | null {
  const hook = installation.incomingWebhook;
  if (!hook) return null;
  return {
    url: hook.url,
    view: {
      id: `${INSTALLATION_PREFIX}${installation.id}`,
      source: "installation",
      label: `${hook.channel.startsWith("#") ? hook.channel : `#${hook.channel}`} · ${installationName(installation.team, installation.appKey)}`,
      maskedUrl: maskWebhookUrl(hook.url),
      channel: hook.channel.replace(/^#/, ""),
      channelId: hook.channelId || null,
      teamId: installation.team.id,
      installationId: installation.id,
    },
  };
}

export function pastedWebhookView(hook: PastedWebhook): WebhookView {
  return {
    id: hook.id,
    source: "pasted",
    label: hook.label,
    maskedUrl: maskWebhookUrl(hook.url),
    channel: null,
    channelId: null,
    teamId: null,
    installationId: null,
  };
}

async function resolveAll(viewer: Viewer): Promise<ResolvedWebhook[]> {
  const installed = (await listVisibleInstallations(viewer)).flatMap((i) => fromInstallation(i) ?? []);
  const pasted = (await readPastedWebhooks(viewer)).map<ResolvedWebhook>((hook) => ({ url: hook.url, view: pastedWebhookView(hook) }));
  return [...installed, ...pasted];
}

/** The session's webhooks, as the browser may see them: from installations first, then pasted ones. */
export async function listWebhookViews(viewer: Viewer): Promise<WebhookView[]> {
  return withEmulatorChannels(await resolveAll(viewer));
}

/** The hook id (B…) of a URL on the emulator's /services/ (its base URL `base`), or null for any other URL. */
function emulatorHookId(url: string, base: string): string | null {
  if (!url.startsWith(`${base}/services/`)) return null;
  return url.slice(base.length).split("/")[3] ?? null;
}

/**
 * Pasted webhooks of the emulator that is the upstream (embedded, or standalone through PLATFORM_BASE_URL)
 * get their channel, so the page can show it receive messages. Only when some pasted URL is the upstream's
 * is the upstream asked what it is.
 */
async function withEmulatorChannels(webhooks: ResolvedWebhook[]): Promise<WebhookView[]> {
  const base = getConfig().upstream.baseUrl;
  const unplaced = webhooks.filter((w) => w.view.channelId === null && emulatorHookId(w.url, base) !== null);
  if (unplaced.length === 0) return webhooks.map((w) => w.view);
  const upstream = await upstreamEmulator();
  if (upstream.kind === "platform") return webhooks.map((w) => w.view);
  const channels = await readEmulatorWebhookChannels(upstream.target).catch(() => new Map<string, { id: string; name: string; teamId: string }>());
  return webhooks.map(({ url, view }) => {
    const channel = view.channelId === null ? channels.get(emulatorHookId(url, base) ?? "") : undefined;
    return channel ? { ...view, channel: channel.name, channelId: channel.id, teamId: channel.teamId } : view;
  });
}

/** One webhook by its id: the installation's (one point read, from the store's cache) or a pasted one, never a list. */
async function resolveWebhook(viewer: Viewer, id: string): Promise<ResolvedWebhook> {
  let found: ResolvedWebhook | null = null;
  if (id.startsWith(INSTALLATION_PREFIX)) {
    const installation = await findInstallation(id.slice(INSTALLATION_PREFIX.length), { holder: { viewer } });
    found = installation && canSee(viewer, installation) ? fromInstallation(installation) : null;
  } else {
    const hook = await readPastedWebhook(viewer, id);
    found = hook ? { url: hook.url, view: pastedWebhookView(hook) } : null;
  }
  if (!found) throw new AppError("unknown_webhook");
  return found;
}

export type WebhookMessage = { text: string } | { payload: string };

/**
 * Sends a message through a session webhook and records it in the history. A text becomes `{"text": …}`;
 * a raw payload goes out exactly as typed, so the platform's answer to a malformed one can be seen too.
 * The platform's answer comes back whatever its status; the proxy's own refusals are AppErrors.
 */
export async function sendWebhookMessage(viewer: Viewer, webhookId: string, message: WebhookMessage): Promise<WebhookSendResponse> {
  const webhook = await resolveWebhook(viewer, webhookId);
  const body = "text" in message ? JSON.stringify({ text: message.text }) : message.payload;
  const outcome = await sendToWebhook(webhook.url, body, { policy: await webhookUrlPolicy(), timeoutMs: webhookTimeoutMs(getConfig().upstreamTimeoutMs) });
  const record: WebhookSend = {
    id: randomBytes(6).toString("base64url"),
    webhookId,
    webhookLabel: webhook.view.label,
    sentAt: Date.now(),
    preview: "text" in message ? message.text : message.payload,
    status: outcome.kind === "answered" ? outcome.answer.status : outcome.status,
    ok: outcome.kind === "answered" && outcome.answer.ok,
    result: outcome.kind === "answered" ? outcome.answer.body : outcome.reason,
    durationMs: outcome.kind === "answered" ? outcome.answer.durationMs : null,
  };
  await recordSendSafely(viewer, record);
  if (outcome.kind === "refused") throw new AppError(outcome.status === 413 ? "payload_too_large" : "webhook_refused", { message: outcome.reason });
  if (outcome.kind === "failed") throw new AppError(outcome.status === 504 ? "webhook_timeout" : "webhook_unreachable", { message: outcome.reason });
  return { ...outcome.answer, record };
}

/**
 * The message is out by the time the history is written: a history that cannot be saved is logged and the
 * send still answers what the platform said, since a send reported as failed would be retried and posted twice.
 */
async function recordSendSafely(viewer: Viewer, record: WebhookSend): Promise<void> {
  try {
    await recordSend(viewer, record);
  } catch (error) {
    logger.warn({ err: error instanceof AppError ? error.code : error instanceof Error ? error.name : "unknown" }, "webhook send history not saved");
  }
}
