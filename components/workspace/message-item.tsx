"use client";

import { memo, useEffect, useRef } from "react";
import type { WorkspaceAppWire, WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import type { ActionEvent } from "@/components/blocks/actions";
import { BlockContext, type BlockHandlers } from "@/components/blocks/block-context";
import { formatClockTime, formatDateTime } from "@/lib/format";
import { hasBlocksOrAttachments, messageContent } from "./message-content";

/** The reactions offered on every message (their names, and how they show). */
const QUICK_REACTIONS = [
  { name: "+1", emoji: "👍" },
  { name: "white_check_mark", emoji: "✅" },
  { name: "eyes", emoji: "👀" },
  { name: "tada", emoji: "🎉" },
];
const EMOJI = new Map(QUICK_REACTIONS.map((r) => [r.name, r.emoji]));

/** A message's ts as milliseconds: its seconds, before the dot. */
const atOf = (ts: string): number => Number(ts.split(".")[0]) * 1000;

export interface MessageHandlers {
  me: string;
  names: Record<string, string>;
  apps: WorkspaceAppWire[];
  busy: boolean;
  /** A channel's name by its id, for the mentions in messages. */
  channelName: (id: string) => string | undefined;
  onReact: (ts: string, name: string) => void;
  onAction: (ts: string, event: ActionEvent, blocks: readonly unknown[]) => void | Promise<unknown>;
  /** More for a message's blocks: the workspace's lists its selects show, how an external select asks the app. */
  blockHandlers?: (ts: string, blocks: readonly unknown[]) => BlockHandlers;
  onShortcut: (ts: string, app_id: string, callback_id: string) => void;
}

/** A row's open menu: whose (a message's ts), which, and where its popup goes in the row (under its button). */
export interface OpenMenu {
  ts: string;
  /** The conversation's row it is in: the message's own, or its thread's for a reply. */
  row: string;
  kind: "react" | "more";
  top: number;
  left: number;
  /** The button that opened it: Escape gives it the focus back. */
  opener: HTMLButtonElement;
}

/** What a row's menus report to: the list holds the one open menu (a row's own state was hooks and an effect in every row mounted). */
export interface MenuHandlers {
  /** The open menu, when it is this row's (or one of its thread's replies'); null otherwise. */
  menu: OpenMenu | null;
  /** Opens a menu, or closes it (null); a click on the open menu's button closes it. */
  setMenu: (menu: OpenMenu | null) => void;
}

/**
 * A row's menu button (react, more actions): a plain button, its popup made only once it opens, so that the
 * rows a long list mounts as it scrolls stay light. Not a <details>: each brought a shadow tree with a
 * style sheet of its own to every row mounted (measured: one style sheet processed per row scrolled in).
 * No box around the button either: the popup is placed where it would be under the button (the row is
 * what it is placed in) and drawn over the rows below (the row is raised while its menu is open).
 */
function menuButton(message: WorkspaceMessageWire, kind: OpenMenu["kind"], summary: string, label: string | undefined, { menu, setMenu }: MenuHandlers) {
  const { ts } = message;
  const row = message.thread_ts && message.thread_ts !== ts ? message.thread_ts : ts;
  const open = menu?.ts === ts && menu.kind === kind;
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-label={label}
      onClick={(event) => {
        const opener = event.currentTarget;
        setMenu(open ? null : { ts, row, kind, top: opener.offsetTop + opener.offsetHeight, left: opener.offsetLeft, opener });
      }}
      className="block rounded px-1 text-xs text-slate-600 hover:bg-slate-100"
    >
      {summary}
    </button>
  );
}

/** An open menu's popup: a click anywhere else closes it, Escape closes it and gives the focus back to its button. */
function MenuPopup({ menu, setMenu, children }: { menu: OpenMenu; setMenu: MenuHandlers["setMenu"]; children: (close: () => void) => React.ReactNode }) {
  const popup = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const inside = (node: EventTarget | null) => node instanceof Node && (menu.opener.contains(node) || popup.current?.contains(node));
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) setMenu(null);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !inside(event.target)) return;
      setMenu(null);
      menu.opener.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [menu, setMenu]);
  return (
    <div ref={popup} className="absolute z-10" style={{ top: menu.top, left: menu.left }}>
      {children(() => setMenu(null))}
    </div>
  );
}

/** A message's row box: its look (an ephemeral is marked), with what the list adds (its place, its index). */
const rowClass = (message: WorkspaceMessageWire, more = "") =>
  `group rounded-md px-2 py-1.5 ${message.subtype === "ephemeral" ? "border-l-4 border-sky-400 bg-sky-50" : "hover:bg-slate-50"} ${more}`;

/**
 * A thread reply: a message in its own row box. Not positioned: its menu's popup is placed in the conversation's
 * row (measured from there when it opened), which is raised while the menu is open.
 */
function Message({ message, handlers, menus }: { message: WorkspaceMessageWire; handlers: MessageHandlers; menus: MenuHandlers }) {
  return (
    <li className={rowClass(message)} data-ts={message.ts}>
      {messageBody(message, handlers, menus)}
    </li>
  );
}

/**
 * When a message was posted, as a chat client writes it: the time of day to the minute, with the date when
 * it is not today (as components/local-time.tsx writes it with `date="auto"`). Written in the browser only:
 * the list renders from what the page fetched, never on the server; no hook, so a row mounts no component.
 */
function postedAt(ts: string) {
  const at = atOf(ts);
  const day = new Date(at);
  return (
    <time dateTime={day.toISOString()} className="text-xs text-slate-600">
      {day.toDateString() === new Date().toDateString() ? formatClockTime(at, { precision: "minute" }) : formatDateTime(at, { precision: "minute" })}
    </time>
  );
}

/**
 * What a message shows inside its row: who wrote it and when, its content, its reactions and menus. A
 * function, not a component (it holds no state): a row mounted as the list scrolls holds its elements and
 * no component around them. Mentions in text name people and channels through the list's BlockContext; a
 * message with blocks or attachments gets one of its own, which its controls act through.
 */
function messageBody(message: WorkspaceMessageWire, handlers: MessageHandlers, menus: MenuHandlers) {
  const ephemeral = message.subtype === "ephemeral";
  const app = handlers.apps.find((a) => a.app_id === message.app_id);
  const author = app?.name ?? (message.user ? (handlers.names[message.user] ?? message.user) : (message.bot_id ?? "someone"));
  const shortcuts = handlers.apps.flatMap((a) => a.shortcuts.filter((s) => s.type === "message").map((s) => ({ ...s, app_id: a.app_id })));
  const content = messageContent({ text: message.text, blocks: message.blocks, attachments: message.attachments });
  const open = menus.menu?.ts === message.ts ? menus.menu : null;
  const reactions = message.reactions ?? [];
  const reactMenu = (menu: OpenMenu) => (
    <MenuPopup menu={menu} setMenu={menus.setMenu}>
      {(close) => (
        <div className="flex gap-1 rounded-md border border-slate-200 bg-white p-1 shadow">
          {QUICK_REACTIONS.map((r) => (
            <button
              key={r.name}
              type="button"
              aria-label={`React with ${r.name}`}
              onClick={() => {
                close();
                handlers.onReact(message.ts, r.name);
              }}
              className="rounded px-1 hover:bg-slate-100"
            >
              {r.emoji}
            </button>
          ))}
        </div>
      )}
    </MenuPopup>
  );
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-sm font-semibold text-slate-900">{author}</span>
        {app && <span className="rounded bg-slate-200 px-1 text-[10px] font-semibold uppercase text-slate-700">app</span>}
        {postedAt(message.ts)}
        {message.edited !== undefined && <span className="text-xs text-slate-600">(edited)</span>}
        {ephemeral && <span className="text-xs text-sky-800">Only visible to you</span>}
      </div>
      {hasBlocksOrAttachments(message) ? (
        <BlockContext.Provider
          value={{
            ...handlers.blockHandlers?.(message.ts, message.blocks ?? []),
            onAction: (event) => handlers.onAction(message.ts, event, message.blocks ?? []),
            userName: (id) => handlers.names[id],
            channelName: handlers.channelName,
          }}
        >
          {content}
        </BlockContext.Provider>
      ) : (
        content
      )}
      {!ephemeral && (
        <div className="mt-1 flex flex-wrap items-center gap-1">
          {reactions.map((r) => (
            <button
              key={r.name}
              type="button"
              aria-pressed={r.users.includes(handlers.me)}
              aria-label={`${r.name}: ${r.count}, ${r.users.includes(handlers.me) ? "take back yours" : "add yours"}`}
              onClick={() => handlers.onReact(message.ts, r.name)}
              className={`rounded-full border px-2 text-xs ${r.users.includes(handlers.me) ? "border-emerald-500 bg-emerald-50" : "border-slate-300"}`}
            >
              {EMOJI.get(r.name) ?? `:${r.name}:`} {r.count}
            </button>
          ))}
          {menuButton(message, "react", "+ react", "React", menus)}
          {open?.kind === "react" && reactMenu(open)}
          {shortcuts.length > 0 && menuButton(message, "more", "More actions", undefined, menus)}
          {shortcuts.length > 0 && open?.kind === "more" && (
            <MenuPopup menu={open} setMenu={menus.setMenu}>
              {(close) => (
                <ul className="min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow">
                  {shortcuts.map((s) => (
                    <li key={`${s.app_id}${s.callback_id}`}>
                      <button
                        type="button"
                        className="w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100"
                        onClick={() => {
                          close();
                          handlers.onShortcut(message.ts, s.app_id, s.callback_id);
                        }}
                      >
                        {s.name}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </MenuPopup>
          )}
        </div>
      )}
    </>
  );
}

/**
 * What a row of the conversation shows: the message, its thread's reply count (a button that opens the
 * thread) and, opened, its replies and a reply box. Memoised apart from the row's place: a row that moves
 * (a message above it measured taller than estimated, an older page read above it) or is renumbered only
 * gets a new transform and index, without its content rendering again (blocks, mrkdwn, the time), in the
 * frame a person scrolls.
 */
const RowContent = memo(function RowContent({
  message,
  replies,
  opened,
  onToggle,
  handlers,
  renderReplyBox,
  menu,
  setMenu,
}: {
  message: WorkspaceMessageWire;
  replies: readonly WorkspaceMessageWire[];
  opened: boolean;
  onToggle: (ts: string) => void;
  handlers: MessageHandlers;
  renderReplyBox: (threadTs: string) => React.ReactNode;
} & MenuHandlers) {
  const menus = { menu, setMenu };
  return (
    <>
      {messageBody(message, handlers, menus)}
      {message.subtype !== "ephemeral" && (
        <button type="button" className="mt-1 text-xs font-medium text-emerald-800 hover:underline" aria-expanded={opened} onClick={() => onToggle(message.ts)}>
          {replies.length > 0 ? `${replies.length} ${replies.length === 1 ? "reply" : "replies"}` : "Reply in thread"}
        </button>
      )}
      {opened && (
        <div className="mt-1 space-y-1 border-l-2 border-slate-200 pl-3">
          <ol className="space-y-0.5" aria-label="Thread replies">
            {replies.map((r) => (
              <Message key={r.ts} message={r} handlers={handlers} menus={menus} />
            ))}
          </ol>
          {renderReplyBox(message.ts)}
        </div>
      )}
    </>
  );
});

/** One row of the conversation, placed by the list (memoised: while the list scrolls, only rows that come into view or move render). */
export const MessageRow = memo(function MessageRow({
  index,
  measure,
  start,
  setSize,
  ...content
}: {
  message: WorkspaceMessageWire;
  replies: readonly WorkspaceMessageWire[];
  opened: boolean;
  onToggle: (ts: string) => void;
  handlers: MessageHandlers;
  renderReplyBox: (threadTs: string) => React.ReactNode;
  index: number;
  measure: (element: HTMLLIElement | null) => void;
  start: number;
  /** How many rows the conversation has (-1 while older ones are still unread): only some are in the page. */
  setSize: number;
} & MenuHandlers) {
  return (
    <li
      ref={measure}
      data-index={index}
      data-ts={content.message.ts}
      aria-setsize={setSize}
      aria-posinset={setSize < 0 ? undefined : index + 1}
      // Raised while its menu is open or it holds the focus, so its open menus are drawn over the rows below it.
      // Its layout its own (a row mounting or growing lays out no other), its menus still drawn past its edge.
      className={rowClass(content.message, `absolute left-0 top-0 w-full [contain:layout_style] focus-within:z-10${content.menu ? " z-10" : ""}`)}
      style={{ transform: `translateY(${start}px)` }}
    >
      <RowContent {...content} />
    </li>
  );
});
