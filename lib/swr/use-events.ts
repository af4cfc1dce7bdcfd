"use client";

import useSWRSubscription from "swr/subscription";
import useSWRMutation from "swr/mutation";
import type { MentionResult } from "@/lib/emulator-admin/universal/schemas";
import type { ReceivedEvent } from "@/lib/events/feed";
import { fetchJson, jsonBody } from "./console-fetch";

export const EVENT_FEED_LIMIT = 200;

export interface EventFeedState {
  /** Newest first. */
  events: ReceivedEvent[];
  connected: boolean;
}

/** After the server refused the stream (429 past its viewer limits, or any non-stream answer), try again after this. */
const REOPEN_AFTER_MS = 15_000;

/**
 * The live feed of /api/events/stream: a snapshot of the kept events, then each new one. EventSource
 * reconnects by itself after a dropped connection; each reconnection starts again from a fresh snapshot.
 * It gives up for good on an answer that is not a stream (a 429 when too many feeds are open), so then
 * the feed opens a new one after a pause.
 */
export function useEventFeed() {
  return useSWRSubscription<EventFeedState, Error, string>("/api/events/stream", (key, { next }) => {
    let source: EventSource | undefined;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      source = new EventSource(key);
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
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          reopen = setTimeout(open, REOPEN_AFTER_MS * (0.75 + Math.random() / 2));
        }
      });
    };
    open();
    return () => {
      clearTimeout(reopen);
      source?.close();
    };
  });
}

/** The emulator's "mention the app" (POST /api/emulator/mention). */
export function useMentionApp() {
  return useSWRMutation<MentionResult, Error, string, { installationId: string; text?: string }>("/api/emulator/mention", (key, { arg }) =>
    fetchJson<MentionResult>(key, jsonBody(arg)),
  );
}
