"use client";

import useSWRSubscription from "swr/subscription";
import useSWRMutation from "swr/mutation";
import type { MentionResult } from "@/lib/events/emulator-admin";
import type { ReceivedEvent } from "@/lib/events/feed";
import { fetchJson, jsonBody } from "./fetch-json";

export const EVENT_FEED_LIMIT = 200;

export interface EventFeedState {
  /** Newest first. */
  events: ReceivedEvent[];
  connected: boolean;
}

/**
 * The live feed of /api/events/stream: a snapshot of the kept events, then each new one. EventSource
 * reconnects by itself; each reconnection starts again from a fresh snapshot.
 */
export function useEventFeed() {
  return useSWRSubscription<EventFeedState, Error, string>("/api/events/stream", (key, { next }) => {
    const source = new EventSource(key);
    source.addEventListener("snapshot", (message) => {
      next(null, { events: JSON.parse(message.data) as ReceivedEvent[], connected: true });
    });
    source.addEventListener("received", (message) => {
      const event = JSON.parse(message.data) as ReceivedEvent;
      next(null, (previous) => ({
        events: [event, ...(previous?.events ?? []).filter((e) => e.id !== event.id)].slice(0, EVENT_FEED_LIMIT),
        connected: true,
      }));
    });
    source.addEventListener("error", () => {
      next(null, (previous) => ({ events: previous?.events ?? [], connected: false }));
    });
    return () => source.close();
  });
}

/** The emulator's "mention the app" (POST /api/emulator/mention). */
export function useMentionApp() {
  return useSWRMutation<MentionResult, Error, string, { installationId: string; text?: string }>(
    "/api/emulator/mention",
    (key, { arg }) => fetchJson<MentionResult>(key, jsonBody(arg)),
  );
}
