import "server-only";
import { canSee } from "@/lib/access/rights";
import { currentViewer } from "@/lib/access/viewer";
import { getConfig } from "@/lib/config";
import { callEmulatorAdmin } from "@/lib/emulator-admin-client";
import { AppError, isRelayedError } from "@/lib/http/app-error";
import { requireInstallation } from "@/lib/installations/store";
import type { EmulatorChannelMessages } from "@/lib/webhooks/universal/types";

/**
 * The embedded emulator's admin surface, as the webhook and event pages use it: a channel's messages (to
 * watch a webhook message arrive) and "mention the app" (to watch an app_mention arrive). It exists only
 * when the emulator is the upstream, and is reached in-process with the admin token (lib/emulator-admin-client.ts).
 */

const SHOWN_MESSAGES = 20;

function requireEmulator(): string {
  const { upstream } = getConfig();
  if (upstream.kind !== "emulator") throw new AppError("not_emulator");
  return upstream.baseUrl;
}

async function callAdmin(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await callEmulatorAdmin(path, { baseUrl: requireEmulator(), body, timeoutMs: getConfig().upstreamTimeoutMs });
  if (answer.status < 200 || answer.status > 299 || answer.body.ok !== true) {
    const code = typeof answer.body.error === "string" ? answer.body.error : `http_${answer.status}`;
    throw new AppError(
      { relayed: code, status: answer.status >= 400 && answer.status < 500 ? answer.status : 502 },
      { message: `The emulator answered ${code}.` },
    );
  }
  return answer.body;
}

interface AdminMessage {
  ts: string;
  text: string;
  via: string;
  user?: string;
  username?: string;
  bot_id?: string;
}

/** The latest messages of one channel, newest first. */
export async function readEmulatorChannel(channelId: string): Promise<EmulatorChannelMessages> {
  const state = await callAdmin("state");
  // The channels the admin state lists are its first workspace's: a person who does not see that workspace
  // (lib/access) finds none of them, as for a channel that does not exist.
  const team = (state.team ?? {}) as { id?: string };
  const visible = canSee(await currentViewer(), { team: { id: String(team.id ?? "") } });
  const channels = visible ? ((state.channels ?? []) as Array<{ id: string; name: string; messages: AdminMessage[] }>) : [];
  const channel = channels.find((c) => c.id === channelId);
  return {
    channel: { id: channelId, name: channel?.name ?? null },
    messages: (channel?.messages ?? [])
      .slice(-SHOWN_MESSAGES)
      .reverse()
      .map((m) => ({ ts: m.ts, text: m.text, via: m.via, author: m.username ?? m.user ?? (m.bot_id ? `bot ${m.bot_id}` : "unknown") })),
  };
}

/**
 * The Web API methods the emulator implements, as it describes itself (its GET /admin/methods), for the
 * explorer in the browser, which reads them here rather than from the admin surface (which an exposed
 * console keeps to its token).
 */
export async function readEmulatorMethods(): Promise<{ methods: unknown[] }> {
  const body = await callAdmin("methods");
  return { methods: Array.isArray(body.methods) ? body.methods : [] };
}

/**
 * The channel each of the emulator's incoming webhooks posts to, by hook id (the B… segment of its URL):
 * a pasted emulator webhook carries no channel, and the console shows that channel's messages.
 */
export async function readEmulatorWebhookChannels(): Promise<Map<string, { id: string; name: string }>> {
  const state = await callAdmin("state");
  const installations = (state.installations ?? []) as Array<{ incoming_webhook: { hook_id: string; channel_id: string; channel: string } | null }>;
  const channels = new Map<string, { id: string; name: string }>();
  for (const { incoming_webhook: hook } of installations) {
    if (hook) channels.set(hook.hook_id, { id: hook.channel_id, name: hook.channel.replace(/^#/, "") });
  }
  return channels;
}

export interface MentionResult {
  channel: string;
  ts: string;
  text: string;
  event_ids: string[];
}

/**
 * A member of the emulated workspace mentions the bot user of one of this session's installations in a
 * channel; the emulator then signs and delivers an app_mention to the app's request URL (this console's
 * POST /api/events). The emulator delivers only to a verified request URL; the one it verified when it
 * started may have failed (a development server still compiling its route takes longer than the 3 seconds
 * the platform waits), so an unverified URL, which is this console's own, is verified again once.
 */
export async function mentionInstallationApp(installationId: string, text: string | undefined): Promise<MentionResult> {
  const installation = await requireInstallation(installationId);
  if (!installation.appId) throw new AppError("no_app_id");
  const appId = installation.appId;
  // The installation's own workspace: the app's installation in another would post there instead.
  const mention = () => callAdmin("mention", { app_id: appId, team_id: installation.team.id, ...(text ? { text } : {}) });
  let body: Record<string, unknown>;
  try {
    body = await mention();
  } catch (error) {
    if (!isRelayedError(error, "request_url_not_verified")) throw error;
    await verifyRequestUrl(appId);
    body = await mention();
  }
  return {
    channel: String(body.channel ?? ""),
    ts: String(body.ts ?? ""),
    text: String(body.text ?? ""),
    event_ids: Array.isArray(body.event_ids) ? body.event_ids.map(String) : [],
  };
}

/** Asks the emulator to send its app a fresh url_verification challenge; refuses when it is not answered. */
async function verifyRequestUrl(appId: string): Promise<void> {
  const body = await callAdmin(`apps/${encodeURIComponent(appId)}/verify`, {});
  const verification = body.request_url_verification as { url?: string; state?: string; failure?: string | null; status?: number | null } | null;
  if (verification?.state !== "verified") {
    const why = verification?.failure === "http_error" ? `HTTP ${verification.status}` : (verification?.failure ?? "no answer");
    throw new AppError("request_url_not_verified", {
      message: `The emulator sends events only to a verified request URL, and ${verification?.url ?? "this app's request URL"} did not answer its url_verification challenge (${why}).`,
    });
  }
}
