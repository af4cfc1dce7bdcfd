import type { WorkspaceHistoryWire, WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";

/**
 * What the Workspace page holds of one conversation: the messages of the pages it read (the newest first,
 * then older ones by cursor as the person scrolls up), each thread read again when the live stream says it
 * changed, and where the next older page starts. Pure, so the hook (use-channel-history.ts) stays small.
 */
export interface ChannelHistoryState {
  /** Stored messages (thread replies too) by ts. */
  byTs: ReadonlyMap<string, WorkspaceMessageWire>;
  ephemerals: readonly WorkspaceMessageWire[];
  names: Readonly<Record<string, string>>;
  /** The cursor of the next older page; "" once the first message was read; null before the first page. */
  older: string | null;
}

export const EMPTY_HISTORY: ChannelHistoryState = { byTs: new Map(), ephemerals: [], names: {}, older: null };

/** The thread a message belongs to: its parent's ts (a top-level message is its own). */
export const rootOf = (m: Pick<WorkspaceMessageWire, "ts" | "thread_ts">): string => m.thread_ts ?? m.ts;

function withMessages(state: ChannelHistoryState, page: WorkspaceHistoryWire, drop: (m: WorkspaceMessageWire) => boolean): Map<string, WorkspaceMessageWire> {
  const byTs = new Map([...state.byTs].filter(([, m]) => !drop(m)));
  for (const m of page.messages) byTs.set(m.ts, m);
  return byTs;
}

/** The newest page, read first or again (after an act, a reconnection): what it holds replaces what was held of those threads. */
export function withNewestPage(state: ChannelHistoryState, page: WorkspaceHistoryWire): ChannelHistoryState {
  const roots = new Set(page.messages.map(rootOf));
  return {
    byTs: withMessages(state, page, (m) => roots.has(rootOf(m))),
    ephemerals: page.ephemerals,
    names: { ...state.names, ...page.names },
    // Read again, the newest page does not move where older reading goes on.
    older: state.older ?? page.response_metadata.next_cursor,
  };
}

/** An older page, read by the cursor the page before gave. */
export function withOlderPage(state: ChannelHistoryState, page: WorkspaceHistoryWire): ChannelHistoryState {
  return {
    ...state,
    byTs: withMessages(state, page, () => false),
    names: { ...state.names, ...page.names },
    older: page.response_metadata.next_cursor,
  };
}

/** One thread read again (`root`: its parent's ts): what came replaces it; nothing came, it is gone. */
export function withThread(state: ChannelHistoryState, root: string, page: WorkspaceHistoryWire): ChannelHistoryState {
  const roots = new Set([root, ...page.messages.map(rootOf)]);
  return { ...state, byTs: withMessages(state, page, (m) => roots.has(rootOf(m))), names: { ...state.names, ...page.names } };
}

/** A message deleted: gone, and a parent takes its replies with it. */
export function withoutMessage(state: ChannelHistoryState, ts: string): ChannelHistoryState {
  if (!state.byTs.has(ts)) return state;
  return { ...state, byTs: new Map([...state.byTs].filter(([key, m]) => key !== ts && rootOf(m) !== ts)) };
}

const byTime = (a: WorkspaceMessageWire, b: WorkspaceMessageWire) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0);

/** Each state's messages in order, sorted once: the page asks on every render, and a long channel holds thousands. */
const SORTED = new WeakMap<ChannelHistoryState, { list: WorkspaceMessageWire[]; seen: Set<string> }>();

/**
 * The held messages with the member's ephemerals (stored, then streamed ones not stored), oldest first. The
 * same array while nothing changed, so the list's own work on it (threads grouped) is not done again.
 */
export function messagesOf(state: ChannelHistoryState, streamed: readonly WorkspaceMessageWire[]): WorkspaceMessageWire[] {
  let held = SORTED.get(state);
  if (!held) {
    const list = [...state.byTs.values(), ...state.ephemerals].sort(byTime);
    held = { list, seen: new Set(list.map((m) => m.ts)) };
    SORTED.set(state, held);
  }
  const seen = held.seen;
  const extra = streamed.filter((m) => !seen.has(m.ts));
  return extra.length === 0 ? held.list : [...held.list, ...extra].sort(byTime);
}
