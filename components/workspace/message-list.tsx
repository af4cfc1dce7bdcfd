"use client";

import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import { BlockContext, type BlockHandlers } from "@/components/blocks/block-context";
import { MessageRow, type MessageHandlers, type OpenMenu } from "./message-item";

export type { MessageHandlers } from "./message-item";

/** A row's height before it is measured: its author line, one line of text, the react and thread buttons. */
const ESTIMATED_ROW = 100;
/** Room above the first row for what the top of the list says (older messages loading, or the very beginning). */
const TOP = 32;
/** How near the end (px) still counts as at the end: the list follows new messages from there. */
const END_SLACK = 40;
/**
 * Rows from the top of what is held at which the next older page is asked for: far enough that a page's
 * round trip (25 to 35 ms measured on the bench's 10,000-message channel, with pages of 100) ends before a
 * person scrolling fast (a screenful, about five rows, a frame) reaches the top, so the list seldom waits
 * there and takes the page in while it scrolls; 8 rows were two frames, and every page was waited for.
 */
const READ_AHEAD_ROWS = 60;

interface Grouped {
  top: WorkspaceMessageWire[];
  replies: Map<string, WorkspaceMessageWire[]>;
}

const NO_REPLIES: readonly WorkspaceMessageWire[] = [];

/**
 * Whether an older page is on its way, held outside React's state: the list's top line reads it, and only
 * that line renders again when it changes (a state of the list or the page rendered them, in the frame the
 * request starts and again in the one it ends).
 */
function readingFlag() {
  let reading = false;
  const listeners = new Set<() => void>();
  return {
    get: () => reading,
    set(next: boolean) {
      if (next === reading) return;
      reading = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
type ReadingFlag = ReturnType<typeof readingFlag>;

/** What the top of the list says: older messages loading, or the very beginning of the conversation. */
function TopLine({ flag, loaded, hasOlder, label }: { flag: ReadingFlag; loaded: boolean; hasOlder: boolean; label: string }) {
  const reading = useSyncExternalStore(flag.subscribe, flag.get, flag.get);
  return (
    <p className="absolute left-0 top-0 flex h-8 w-full items-center justify-center text-xs text-slate-600" role="status">
      {!loaded || reading ? "Loading older messages…" : hasOlder ? "" : `This is the very beginning of ${label}.`}
    </p>
  );
}

function group(messages: readonly WorkspaceMessageWire[]): Grouped {
  const replies = new Map<string, WorkspaceMessageWire[]>();
  const top: WorkspaceMessageWire[] = [];
  for (const m of messages) {
    if (m.thread_ts && m.thread_ts !== m.ts) {
      const list = replies.get(m.thread_ts);
      if (list) list.push(m);
      else replies.set(m.thread_ts, [m]);
    } else top.push(m);
  }
  return { top, replies };
}

/**
 * A conversation's messages, oldest first, virtualised: only the rows in view (and a few around) are in the
 * page, each measured as it renders (blocks, attachments, reactions and opened threads make rows of any
 * height). It opens at the newest message and follows new ones while the person is at the end; scrolled up,
 * what loads above (older pages, `onOlder`) or arrives below leaves the view where it is, and a "new
 * messages" button says something came. It stays a list (aria-setsize and aria-posinset say where a row
 * is), a row holding the focus stays rendered, and the list scrolls with the keyboard (it takes the focus).
 */
export function MessageList({
  messages,
  handlers,
  renderReplyBox,
  label,
  hasOlder,
  loaded,
  onOlder,
}: {
  messages: WorkspaceMessageWire[];
  handlers: MessageHandlers;
  renderReplyBox: (threadTs: string) => React.ReactNode;
  /** The conversation, as the list's label says it ("#general"). */
  label: string;
  hasOlder: boolean;
  loaded: boolean;
  /** Reads the next older page: settles once it is held, null when none is read (one is on its way, or none is left). */
  onOlder: () => Promise<void> | null;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [openThread, setOpenThread] = useState<string | null>(null);
  const [unseen, setUnseen] = useState(false);
  const { top, replies } = useMemo(() => group(messages), [messages]);
  const focused = useRef<string | null>(null);
  /** The one open menu of the list's rows (a row's own state was hooks and an effect in every row mounted). */
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  /** The top-level row the open menu is in (its own, or one of its thread's replies'): kept in the page, as the focused row is. */
  const menuRow = useRef<string | null>(null);
  const atEnd = useRef(true);
  const [reading] = useState(readingFlag);
  /**
   * Pages read so far: the list looks again once one ended (a page that added no row leaves it where it was,
   * still near the top). Set as the page's messages come, so it renders with them, not once more.
   */
  const [pagesRead, setPagesRead] = useState(0);

  const keyAt = useCallback((index: number) => top[index]?.ts ?? index, [top]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      // The row holding the focus, or an open menu, stays in the page while it scrolls out of view, so the
      // focus is not lost and the menu stays open.
      const kept = [focused.current, menuRow.current].map((ts) => (ts === null ? -1 : top.findIndex((m) => m.ts === ts)));
      const more = kept.filter((at, i) => at >= 0 && !indexes.includes(at) && kept.indexOf(at) === i);
      return more.length === 0 ? indexes : [...indexes, ...more].sort((a, b) => a - b);
    },
    [top],
  );
  // The virtualizer is read afresh each render (its items, its total size), never memoized.
  // eslint-disable-next-line react-hooks/incompatible-library -- read afresh each render, never memoized (above)
  const virtualizer = useVirtualizer({
    count: top.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: keyAt,
    rangeExtractor,
    overscan: 6,
    paddingStart: TOP,
    // A chat's list: rows loaded above keep the view where it is, and at the end it follows what is appended.
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: END_SLACK,
  });

  // Something new below while the person reads above: say so rather than move them.
  const lastKey = top.at(-1)?.ts;
  const seenLast = useRef(lastKey);
  useLayoutEffect(() => {
    if (lastKey === seenLast.current) return;
    const appended = seenLast.current !== undefined && lastKey !== undefined && lastKey > seenLast.current;
    seenLast.current = lastKey;
    if (appended && !atEnd.current) setUnseen(true);
  }, [lastKey]);

  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  useEffect(() => {
    if (!loaded || !hasOlder || reading.get() || firstIndex > READ_AHEAD_ROWS) return;
    const read = onOlder();
    if (!read) return;
    reading.set(true);
    void read.finally(() => {
      reading.set(false);
      setPagesRead((n) => n + 1);
    });
  }, [loaded, hasOlder, firstIndex, onOlder, reading, pagesRead]);

  const onToggle = useCallback((ts: string) => setOpenThread((open) => (open === ts ? null : ts)), []);
  // Mentions in a message's text name people and channels through this; a message with blocks has its own.
  const names = useMemo<BlockHandlers>(() => ({ userName: (id) => handlers.names[id], channelName: handlers.channelName }), [handlers]);
  useLayoutEffect(() => {
    menuRow.current = menu?.row ?? null;
  }, [menu]);

  if (loaded && top.length === 0) {
    return <p className="px-2 py-6 text-sm text-slate-600">No messages yet. Say something, or run an app&apos;s slash command.</p>;
  }
  return (
    <div className="relative">
      <div
        ref={scroller}
        tabIndex={0}
        role="region"
        aria-label={`Messages in ${label}`}
        data-testid="message-scroller"
        onScroll={(e) => {
          const list = e.currentTarget;
          atEnd.current = list.scrollHeight - list.scrollTop - list.clientHeight <= END_SLACK;
          if (atEnd.current && unseen) setUnseen(false);
        }}
        // Contained (size, layout, paint, style): its height is its own, so rows mounting and measured as it
        // scrolls lay out from here, not from the page's root through the whole Workspace page (traced: the
        // layout a frame forced went from 0.97 to 0.79 ms, below the bare list's 0.86).
        className="h-[60vh] overflow-y-auto overscroll-contain [contain:strict] rounded border-y border-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600 md:h-[52vh]"
      >
        <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          <TopLine flag={reading} loaded={loaded} hasOlder={hasOlder} label={label} />
          <BlockContext.Provider value={names}>
            <ol
              aria-label="Messages"
              onFocus={(e) => {
                const row = (e.target as Element).closest("li[data-index]");
                focused.current = row?.getAttribute("data-ts") ?? null;
              }}
            >
              {items.map((item) => {
                const message = top[item.index] as WorkspaceMessageWire;
                return (
                  <MessageRow
                    key={item.key as string}
                    index={item.index}
                    start={item.start}
                    measure={virtualizer.measureElement}
                    message={message}
                    replies={replies.get(message.ts) ?? NO_REPLIES}
                    opened={openThread === message.ts}
                    onToggle={onToggle}
                    handlers={handlers}
                    renderReplyBox={renderReplyBox}
                    setSize={hasOlder ? -1 : top.length}
                    menu={menu?.row === message.ts ? menu : null}
                    setMenu={setMenu}
                  />
                );
              })}
            </ol>
          </BlockContext.Provider>
        </div>
      </div>
      {unseen && (
        <button
          type="button"
          onClick={() => {
            setUnseen(false);
            virtualizer.scrollToEnd();
          }}
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-emerald-700 px-3 py-1 text-sm font-medium text-white shadow-lg hover:bg-emerald-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700"
        >
          New messages ↓
        </button>
      )}
    </div>
  );
}
