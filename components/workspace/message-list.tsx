"use client";

import { useState } from "react";
import type { WorkspaceAppWire, WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import type { ActionEvent } from "@/components/blocks/actions";
import { BlockContext, type BlockHandlers } from "@/components/blocks/block-context";
import { LocalTime } from "@/components/local-time";
import { MessageContent } from "./message-content";

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

function Message({ message, handlers, children }: { message: WorkspaceMessageWire; handlers: MessageHandlers; children?: React.ReactNode }) {
  const ephemeral = message.subtype === "ephemeral";
  const app = handlers.apps.find((a) => a.app_id === message.app_id);
  const author = app?.name ?? (message.user ? (handlers.names[message.user] ?? message.user) : (message.bot_id ?? "someone"));
  const shortcuts = handlers.apps.flatMap((a) => a.shortcuts.filter((s) => s.type === "message").map((s) => ({ ...s, app_id: a.app_id })));
  return (
    <li className={`group rounded-md px-2 py-1.5 ${ephemeral ? "border-l-4 border-sky-400 bg-sky-50" : "hover:bg-slate-50"}`} data-ts={message.ts}>
      <div className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-sm font-semibold text-slate-900">{author}</span>
        {app && <span className="rounded bg-slate-200 px-1 text-[10px] font-semibold uppercase text-slate-700">app</span>}
        <LocalTime at={atOf(message.ts)} date="auto" className="text-xs text-slate-600" />
        {message.edited !== undefined && <span className="text-xs text-slate-600">(edited)</span>}
        {ephemeral && <span className="text-xs text-sky-800">Only visible to you</span>}
      </div>
      <BlockContext.Provider
        value={{
          ...handlers.blockHandlers?.(message.ts, message.blocks ?? []),
          onAction: (event) => handlers.onAction(message.ts, event, message.blocks ?? []),
          userName: (id) => handlers.names[id],
          channelName: handlers.channelName,
        }}
      >
        <MessageContent text={message.text} blocks={message.blocks} attachments={message.attachments} />
      </BlockContext.Provider>
      {!ephemeral && (
        <div className="mt-1 flex flex-wrap items-center gap-1">
          {(message.reactions ?? []).map((r) => (
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
          <details className="relative">
            <summary className="cursor-pointer list-none rounded px-1 text-xs text-slate-600 hover:bg-slate-100" aria-label="React">
              + react
            </summary>
            <div className="absolute z-10 flex gap-1 rounded-md border border-slate-200 bg-white p-1 shadow">
              {QUICK_REACTIONS.map((r) => (
                <button
                  key={r.name}
                  type="button"
                  aria-label={`React with ${r.name}`}
                  onClick={() => handlers.onReact(message.ts, r.name)}
                  className="rounded px-1 hover:bg-slate-100"
                >
                  {r.emoji}
                </button>
              ))}
            </div>
          </details>
          {shortcuts.length > 0 && (
            <details className="relative">
              <summary className="cursor-pointer list-none rounded px-1 text-xs text-slate-600 hover:bg-slate-100">More actions</summary>
              <ul className="absolute z-10 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow">
                {shortcuts.map((s) => (
                  <li key={`${s.app_id}${s.callback_id}`}>
                    <button
                      type="button"
                      className="w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100"
                      onClick={(e) => {
                        e.currentTarget.closest("details")?.removeAttribute("open");
                        handlers.onShortcut(message.ts, s.app_id, s.callback_id);
                      }}
                    >
                      {s.name}
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
      {children}
    </li>
  );
}

/**
 * A conversation's messages, oldest first: each thread's parent with its replies folded under it (opened,
 * with a reply box), reactions, and the ephemeral messages shown to this member, in their place in time.
 */
export function MessageList({
  messages,
  handlers,
  renderReplyBox,
}: {
  messages: WorkspaceMessageWire[];
  handlers: MessageHandlers;
  renderReplyBox: (threadTs: string) => React.ReactNode;
}) {
  const [openThread, setOpenThread] = useState<string | null>(null);
  const replies = new Map<string, WorkspaceMessageWire[]>();
  const top: WorkspaceMessageWire[] = [];
  for (const m of messages) {
    if (m.thread_ts && m.thread_ts !== m.ts) replies.set(m.thread_ts, [...(replies.get(m.thread_ts) ?? []), m]);
    else top.push(m);
  }
  if (top.length === 0) return <p className="px-2 py-6 text-sm text-slate-600">No messages yet. Say something, or run an app&apos;s slash command.</p>;
  return (
    <ol className="space-y-0.5" aria-label="Messages">
      {top.map((m) => {
        const thread = replies.get(m.ts) ?? [];
        const opened = openThread === m.ts;
        return (
          <Message key={m.ts} message={m} handlers={handlers}>
            {m.subtype !== "ephemeral" && (
              <button
                type="button"
                className="mt-1 text-xs font-medium text-emerald-800 hover:underline"
                aria-expanded={opened}
                onClick={() => setOpenThread(opened ? null : m.ts)}
              >
                {thread.length > 0 ? `${thread.length} ${thread.length === 1 ? "reply" : "replies"}` : "Reply in thread"}
              </button>
            )}
            {opened && (
              <div className="mt-1 space-y-1 border-l-2 border-slate-200 pl-3">
                <ol className="space-y-0.5" aria-label="Thread replies">
                  {thread.map((r) => (
                    <Message key={r.ts} message={r} handlers={handlers} />
                  ))}
                </ol>
                {renderReplyBox(m.ts)}
              </div>
            )}
          </Message>
        );
      })}
    </ol>
  );
}
