"use client";

import useSWR from "swr";
import useSWRMutation from "swr/mutation";
import type { EmulatorChannelMessages, PastedWebhookAnswer, WebhookListResponse, WebhookSendResponse } from "@/lib/webhooks/universal/types";
import { fetchJson, jsonBody } from "./console-fetch";

const KEY = "/api/webhooks";

/** The session's webhooks (masked) and the send history. */
export function useWebhooks() {
  const { data, error, isLoading, mutate } = useSWR<WebhookListResponse>(KEY, (url: string) => fetchJson<WebhookListResponse>(url));
  return { data, error: error as Error | undefined, isLoading, mutate };
}

export type WebhookMessage = { text: string } | { payload: string };

/** POST /api/webhooks/send; the list (and its history) revalidates after each send. */
export function useSendWebhook() {
  return useSWRMutation<WebhookSendResponse, Error, string, { webhookId: string } & WebhookMessage>(
    KEY,
    (_key, { arg }) => fetchJson<WebhookSendResponse>("/api/webhooks/send", jsonBody(arg)),
    { populateCache: false, revalidate: true },
  );
}

export function useAddWebhook() {
  return useSWRMutation<PastedWebhookAnswer, Error, string, { url: string; label: string }>(
    KEY,
    (_key, { arg }) => fetchJson<PastedWebhookAnswer>(KEY, jsonBody(arg)),
    { populateCache: false, revalidate: true },
  );
}

export function useRemoveWebhook() {
  return useSWRMutation<{ ok: true }, Error, string, { id: string }>(
    KEY,
    (_key, { arg }) => fetchJson<{ ok: true }>(`${KEY}/${encodeURIComponent(arg.id)}`, { method: "DELETE" }),
    { populateCache: false, revalidate: true },
  );
}

/** The key (and URL) of a channel's messages in the emulator: the channel in its workspace (the webhook's installation's). */
export function emulatorChannelKey(channelId: string, teamId: string | null): string {
  return `/api/emulator/messages?channel=${encodeURIComponent(channelId)}${teamId ? `&team=${encodeURIComponent(teamId)}` : ""}`;
}

/** A channel's latest messages in the embedded emulator, polled so that arrivals show up by themselves. */
export function useEmulatorChannel(channelId: string | null, teamId: string | null) {
  return useSWR<EmulatorChannelMessages>(channelId ? emulatorChannelKey(channelId, teamId) : null, (url: string) => fetchJson<EmulatorChannelMessages>(url), {
    refreshInterval: 3000,
  });
}
