import type { WebhookSend } from "@/lib/store/types";

/** A webhook as the browser sees it: an opaque id and a masked URL, never the URL itself. */
export interface WebhookView {
  id: string;
  source: "installation" | "pasted";
  label: string;
  /** Host and the last 4 characters, for example `hooks.slack.com/…wxyz`. */
  maskedUrl: string;
  /** The channel the webhook posts to, when known (installations record it). */
  channel: string | null;
  channelId: string | null;
  /** The workspace the channel is in (the installation's team), when known: the emulator has several. */
  teamId: string | null;
  installationId: string | null;
}

/** GET /api/webhooks. */
export interface WebhookListResponse {
  webhooks: WebhookView[];
  history: WebhookSend[];
  /** The embedded emulator is the upstream: its channels can be shown. */
  emulator: boolean;
}

/** POST /api/webhooks: the pasted webhook, sealed. */
export interface PastedWebhookAnswer {
  webhook: WebhookView;
}

/** POST /api/webhooks/send, when the platform answered (whatever its status). */
export interface WebhookSendResponse {
  /** The platform accepted the message (HTTP 200). */
  ok: boolean;
  status: number;
  body: string;
  truncated: boolean;
  hint: string | null;
  retryAfterS: number | null;
  durationMs: number;
  record: WebhookSend;
}

/** A channel's latest messages in the embedded emulator (GET /api/emulator/messages). */
export interface EmulatorChannelMessages {
  /** name: null until the channel has a message (the emulator's admin state lists only those). */
  channel: { id: string; name: string | null };
  /**
   * How far the platform's clock is ahead of the console's (seconds; the dashboard moves it): the messages'
   * times are the platform's, the send history's the console's, and the page says so when they differ.
   */
  platformAheadS: number;
  /** `author`: the username, member id or bot id that posted. `via`: how it arrived (incoming-webhook, …). */
  messages: Array<{ ts: string; text: string; via: string; author: string }>;
}

export type { WebhookSend };
