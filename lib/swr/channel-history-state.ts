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
    names: withNames(state.names, page.names),
    // Read again, the newest page does not move where older reading goes on.
    older: state.older ?? page.response_metadata.next_cursor,
  };
}

/** The names with a page's added: the same object when the page names no one new (rows that show names need not render again). */
function withNames(names: Readonly<Record<string, string>>, added: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  return Object.entries(added).every(([id, name]) => names[id] === name) ? names : { ...names, ...added };
}

/**
 * An older page, read by the cursor the page before gave. Scrolling up a long channel takes one every few
 * screenfuls, in the frame the person scrolls: its cost is the page's, not the channel's (the held messages
 * copied as a map, not filtered one by one; messagesOf merges the page into the sorted list it had).
 */
export function withOlderPage(state: ChannelHistoryState, page: WorkspaceHistoryWire): ChannelHistoryState {
  const byTs = new Map(state.byTs);
  for (const m of page.messages) byTs.set(m.ts, m);
  const next: ChannelHistoryState = { ...state, byTs, names: withNames(state.names, page.names), older: page.response_metadata.next_cursor };
  ADDED.set(next, { from: state, messages: page.messages });
  return next;
}

/** One thread read again (`root`: its parent's ts): what came replaces it; nothing came, it is gone. */
export function withThread(state: ChannelHistoryState, root: string, page: WorkspaceHistoryWire): ChannelHistoryState {
  const roots = new Set([root, ...page.messages.map(rootOf)]);
  return { ...state, byTs: withMessages(state, page, (m) => roots.has(rootOf(m))), names: withNames(state.names, page.names) };
}

/** A message deleted: gone, and a parent takes its replies with it. */
export function withoutMessage(state: ChannelHistoryState, ts: string): ChannelHistoryState {
  if (!state.byTs.has(ts)) return state;
  return { ...state, byTs: new Map([...state.byTs].filter(([key, m]) => key !== ts && rootOf(m) !== ts)) };
}

const byTime = (a: WorkspaceMessageWire, b: WorkspaceMessageWire) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0);

/** Each state's messages in order, sorted once: the page asks on every render, and a long channel holds thousands. */
const SORTED = new WeakMap<ChannelHistoryState, { list: WorkspaceMessageWire[]; seen?: Set<string> }>();
/** A state made by adding messages to another (an older page): its list is that state's with them merged in. */
const ADDED = new WeakMap<ChannelHistoryState, { from: ChannelHistoryState; messages: readonly WorkspaceMessageWire[] }>();

/**
 * `held` (the sorted list of `from`) with `added` merged in, in one pass: a stored message of `from` that
 * `added` holds again is replaced (an ephemeral of the same ts stays, as in a list sorted afresh).
 */
function merged(from: ChannelHistoryState, held: readonly WorkspaceMessageWire[], added: readonly WorkspaceMessageWire[]): WorkspaceMessageWire[] {
  const replaced = new Set(added.map((m) => m.ts));
  // One of each ts, the later copy, as `byTs` keeps it (a page that carries a message twice shows it once).
  const incoming = [...new Map(added.map((m) => [m.ts, m])).values()].sort(byTime);
  const list: WorkspaceMessageWire[] = [];
  let i = 0;
  for (const m of held) {
    if (replaced.has(m.ts) && from.byTs.get(m.ts) === m) continue;
    while (i < incoming.length && byTime(incoming[i]!, m) < 0) list.push(incoming[i++]!);
    list.push(m);
  }
  while (i < incoming.length) list.push(incoming[i++]!);
  return list;
}

function sortedOf(state: ChannelHistoryState): { list: WorkspaceMessageWire[]; seen?: Set<string> } {
  let held = SORTED.get(state);
  if (held) return held;
  const added = ADDED.get(state);
  const before = added && SORTED.get(added.from);
  held = { list: before && added ? merged(added.from, before.list, added.messages) : [...state.byTs.values(), ...state.ephemerals].sort(byTime) };
  SORTED.set(state, held);
  // Not kept: the state it came from would live on (with its copy of the map) as long as this one does.
  ADDED.delete(state);
  return held;
}

/**
 * The held messages with the member's ephemerals (stored, then streamed ones not stored), oldest first. The
 * same array while nothing changed, so the list's own work on it (threads grouped) is not done again.
 */
export function messagesOf(state: ChannelHistoryState, streamed: readonly WorkspaceMessageWire[]): WorkspaceMessageWire[] {
  const held = sortedOf(state);
  if (streamed.length === 0) return held.list;
  const seen = (held.seen ??= new Set(held.list.map((m) => m.ts)));
  const extra = streamed.filter((m) => !seen.has(m.ts));
  return extra.length === 0 ? held.list : [...held.list, ...extra].sort(byTime);
}
