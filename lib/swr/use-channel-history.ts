"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { WorkspaceHistoryWire } from "@/lib/emulator-admin/universal/schemas";
import { fetchJson } from "./console-fetch";
import { EMPTY_HISTORY, rootOf, withNewestPage, withOlderPage, withoutMessage, withThread, type ChannelHistoryState } from "./channel-history-state";
import type { WorkspaceChange } from "./use-workspace";

/** Top-level messages the newest page holds: a few screenfuls, what a conversation opens with. */
const PAGE = 100;
/**
 * Top-level messages an older page holds, read as the person scrolls up: the platform's recommended most
 * for conversations.history (200). Each read costs the page a pass over what it holds (the list merged and
 * grouped again, the virtualizer's measurements over every row) and the server a request: at 100 a page,
 * scrolling up 10,000 messages took about 114 reads (pages come short now and then), and their frames were
 * the slowest of the bench's (docs/benchmarks.md, issue 41's fifth pass).
 */
const OLDER_PAGE = 200;

export interface ChannelHistory {
  state: ChannelHistoryState;
  error: Error | undefined;
  /** The first page has come. */
  loaded: boolean;
  hasOlder: boolean;
  /**
   * Reads the next older page (once at a time): settles once it is held (or failed), null when nothing is
   * to read. Whoever asks says it is loading (the list): a state of the page would render the whole page
   * twice a page, in the frames a person scrolls.
   */
  loadOlder: () => Promise<void> | null;
  /** Reads the newest page again: after an act, after the stream reconnected. */
  refresh: () => void;
  /** What the live stream said changed in this conversation. */
  apply: (change: WorkspaceChange) => void;
}

const url = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  return `/api/workspace/history?${search}`;
};

/**
 * One conversation's history as the member `user` reads it, page by page (GET /api/workspace/history with
 * conversations.history's cursor), so that its first message is reachable however long it is, while the
 * live stream's changes (posts, edits, deletes, reactions, replies) are read thread by thread.
 */
export function useChannelHistory(user: string | undefined, channel: string | undefined): ChannelHistory {
  const key = user !== undefined && channel !== undefined ? `${user}|${channel}` : null;
  const [held, setHeld] = useState<{ key: string | null; state: ChannelHistoryState; error?: Error }>({ key, state: EMPTY_HISTORY });
  const current = held.key === key ? held : { key, state: EMPTY_HISTORY, error: undefined };
  // Reads answer after the person may have moved on: each checks it still reads the conversation shown.
  const live = useRef(key);
  const stateRef = useRef(current.state);
  useEffect(() => {
    live.current = key;
    stateRef.current = current.state;
  });

  const update = useCallback((forKey: string | null, next: (state: ChannelHistoryState) => ChannelHistoryState, error?: Error) => {
    if (live.current !== forKey) return;
    setHeld((was) => {
      const base = was.key === forKey ? was.state : EMPTY_HISTORY;
      return { key: forKey, state: next(base), error };
    });
  }, []);

  const read = useCallback(
    async (params: Record<string, string | undefined>): Promise<WorkspaceHistoryWire> => fetchJson<WorkspaceHistoryWire>(url({ user, channel, ...params })),
    [user, channel],
  );

  const refresh = useCallback(() => {
    if (key === null) return;
    read({ limit: String(PAGE) }).then(
      (page) => update(key, (s) => withNewestPage(s, page)),
      (error: unknown) => update(key, (s) => s, error instanceof Error ? error : new Error(String(error))),
    );
  }, [key, read, update]);

  useEffect(() => refresh(), [refresh]);

  const reading = useRef(false);
  const loadOlder = useCallback(() => {
    const cursor = stateRef.current.older;
    if (key === null || reading.current || !cursor) return null;
    reading.current = true;
    return read({ cursor, limit: String(OLDER_PAGE) })
      .then(
        (page) => update(key, (s) => (s.older === cursor ? withOlderPage(s, page) : s)),
        (error: unknown) => update(key, (s) => s, error instanceof Error ? error : new Error(String(error))),
      )
      .finally(() => {
        reading.current = false;
      });
  }, [key, read, update]);

  /** Threads the stream said changed, read again together once a burst of changes has passed. */
  const pending = useRef(new Set<string>());
  const flush = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(flush.current), [key]);
  const apply = useCallback(
    (change: WorkspaceChange) => {
      if (key === null) return;
      if (change.type !== "message_posted" && change.type !== "message_changed" && change.type !== "message_deleted" && change.type !== "reaction") return;
      if (change.type === "message_deleted") return update(key, (s) => withoutMessage(s, change.ts));
      const ts = change.type === "reaction" ? change.ts : change.message.ts;
      const known = stateRef.current.byTs.get(ts);
      const threadTs = change.type === "reaction" ? undefined : (change.message as { thread_ts?: string }).thread_ts;
      pending.current.add(known ? rootOf(known) : (threadTs ?? ts));
      clearTimeout(flush.current);
      flush.current = setTimeout(() => {
        const roots = [...pending.current];
        pending.current.clear();
        for (const root of roots) {
          read({ message: root }).then(
            (page) => update(key, (s) => withThread(s, root, page)),
            // Not read (the connection dropped): the stream's reconnection reads the newest page again.
            () => undefined,
          );
        }
      }, 30);
    },
    [key, read, update],
  );

  return useMemo(
    () => ({
      state: current.state,
      error: current.error,
      loaded: current.state.older !== null,
      hasOlder: Boolean(current.state.older),
      loadOlder,
      refresh,
      apply,
    }),
    [current.state, current.error, loadOlder, refresh, apply],
  );
}
