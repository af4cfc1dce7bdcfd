import "server-only";
import { canSee } from "@/lib/access/rights";
import { currentViewer } from "@/lib/access/viewer";
import { readEmulatorState } from "@/lib/emulator-admin/client";
import { configuredEmulator } from "@/lib/emulator-admin/transport";
import type { EmulatorChannelMessages } from "./universal/types";

/**
 * The embedded emulator's channels, as the webhooks page shows them: where each of its incoming webhooks
 * posts, and a channel's latest messages (to watch a webhook message arrive). Read from its admin state,
 * which exists only while the emulator is the upstream (not_emulator otherwise).
 */

const SHOWN_MESSAGES = 20;

/** The latest messages of one channel, newest first. */
export async function readEmulatorChannel(channelId: string): Promise<EmulatorChannelMessages> {
  const state = await readEmulatorState(configuredEmulator());
  // The channels the admin state lists are its first workspace's: a person who does not see that workspace
  // (lib/access) finds none of them, as for a channel that does not exist.
  const visible = canSee(await currentViewer(), { team: { id: state.team.id } });
  const channel = visible ? state.channels.find((c) => c.id === channelId) : undefined;
  return {
    channel: { id: channelId, name: channel?.name ?? null },
    messages: (channel?.messages ?? [])
      .slice(-SHOWN_MESSAGES)
      .reverse()
      .map((m) => ({ ts: m.ts, text: m.text, via: m.via, author: m.username ?? m.user ?? (m.bot_id ? `bot ${m.bot_id}` : "unknown") })),
  };
}

/**
 * The channel each of the emulator's incoming webhooks posts to, by hook id (the B… segment of its URL):
 * a pasted emulator webhook carries no channel, and the console shows that channel's messages.
 */
export async function readEmulatorWebhookChannels(): Promise<Map<string, { id: string; name: string }>> {
  const state = await readEmulatorState(configuredEmulator());
  const channels = new Map<string, { id: string; name: string }>();
  for (const { incoming_webhook: hook } of state.installations) {
    if (hook) channels.set(hook.hook_id, { id: hook.channel_id, name: hook.channel.replace(/^#/, "") });
  }
  return channels;
}
