import "server-only";
import { webhookUrlPolicy } from "./policy";
import { sendToWebhook, webhookTimeoutMs } from "./send";

/**
 * Posts a text to an incoming webhook under the console's URL policy, or throws saying why it was not
 * delivered (never the URL): the background refresher's needs-reinstall alert, handed to it at start-up
 * (instrumentation-node.ts).
 */
export async function sendAlertToWebhook(url: string, text: string, upstreamTimeoutMs: number): Promise<void> {
  const outcome = await sendToWebhook(url, JSON.stringify({ text }), { policy: await webhookUrlPolicy(), timeoutMs: webhookTimeoutMs(upstreamTimeoutMs) });
  if (outcome.kind !== "answered" || !outcome.answer.ok) throw new Error(outcome.kind === "answered" ? `answered ${outcome.answer.status}` : outcome.reason);
}
