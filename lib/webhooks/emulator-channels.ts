import "server-only";
import { canSee } from "@/lib/installations/universal/rights";
import type { Viewer } from "@/lib/viewer";
import { readEmulatorState } from "@/lib/emulator-admin/client";
import type { AdminTarget } from "@/lib/emulator-admin/transport";
import { AppError } from "@/lib/http/app-error";
import { requireUpstreamEmulator } from "@/lib/upstream-emulator";
import type { EmulatorChannelMessages } from "./universal/types";

/**
 * The upstream emulator's channels (the embedded one, or a standalone one through PLATFORM_BASE_URL:
 * upstreamEmulator), as the webhooks page shows them: where each of its incoming webhooks posts, and a
 * channel's latest messages (to watch a webhook message arrive). Read from its admin state, which only an
 * emulator has (not_emulator against the real platform).
 */

const NO_ADMIN_STATE = "open the channel in the platform's client to see its messages; the console reads channels only from an emulator.";

const SHOWN_MESSAGES = 20;

/**
 * The latest messages of one channel of the workspace `teamId` (the webhook's installation's; without one, the
 * first workspace), newest first. A person who does not see that workspace (lib/access) finds none of its
 * channels, as for a channel or a workspace that does not exist.
 */
export async function readEmulatorChannel(viewer: Viewer, channelId: string, teamId?: string): Promise<EmulatorChannelMessages> {
  const state =
    teamId !== undefined && !canSee(viewer, { team: { id: teamId } })
      ? null
      : await readEmulatorState(await requireUpstreamEmulator(NO_ADMIN_STATE), teamId).catch((error: unknown) => {
          // A workspace the emulator no longer has (it was reset): nothing to show, as for an unknown channel.
          if (error instanceof AppError && error.relayed && error.code === "team_not_found") return null;
          throw error;
        });
  const visible = state !== null && canSee(viewer, { team: { id: state.team.id } });
  const channel = visible ? state.channels.find((c) => c.id === channelId) : undefined;
  return {
    channel: { id: channelId, name: channel?.name ?? null },
    platformAheadS: state?.clock_offset_s ?? 0,
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
export async function readEmulatorWebhookChannels(target: AdminTarget): Promise<Map<string, { id: string; name: string; teamId: string }>> {
  const state = await readEmulatorState(target);
  const channels = new Map<string, { id: string; name: string; teamId: string }>();
  for (const { incoming_webhook: hook, team_id: teamId } of state.installations) {
    if (hook) channels.set(hook.hook_id, { id: hook.channel_id, name: hook.channel.replace(/^#/, ""), teamId });
  }
  return channels;
}
