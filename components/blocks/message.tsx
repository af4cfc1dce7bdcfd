"use client";

import { Attachments } from "./attachments";
import { BlockScope, type BlockHandlers } from "./block-context";
import { BlockList } from "./block-list";
import { Mrkdwn } from "./text";

export interface MessageContent {
  text?: string;
  blocks?: readonly unknown[];
  attachments?: readonly unknown[];
}

/** Who a message is from, as the member's client shows it above the message. */
export interface MessageAuthor {
  name: string;
  /** An app's bot: the APP tag beside the name. */
  app: boolean;
}

/**
 * A message as a member sees it: the author's avatar and name line, then its blocks (its `text` is then only
 * the notification's fallback, as on the platform) or its text, then its attachments.
 */
export function MessageView({
  message,
  author,
  time,
  handlers = {},
}: {
  message: MessageContent;
  author: MessageAuthor;
  time: string;
  handlers?: BlockHandlers;
}) {
  const blocks = message.blocks ?? [];
  const initial = [...author.name].find((c) => /\p{L}|\p{N}/u.test(c))?.toUpperCase() ?? "?";
  return (
    <BlockScope value={handlers}>
      <article className="flex gap-2.5 text-[15px] leading-relaxed text-slate-800" aria-label={`Message from ${author.name}`}>
        <div aria-hidden className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-violet-700 text-base font-bold text-white">
          {initial}
        </div>
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="flex flex-wrap items-baseline gap-x-1.5 leading-tight">
            <bdi className="font-bold text-slate-900">{author.name}</bdi>
            {author.app && <span className="rounded bg-slate-200 px-1 py-px text-[10px] font-semibold uppercase tracking-wide text-slate-700">App</span>}
            <span className="text-xs text-slate-600">{time}</span>
          </p>
          {blocks.length > 0 ? <BlockList blocks={blocks} /> : message.text ? <Mrkdwn text={message.text} /> : null}
          {message.attachments && message.attachments.length > 0 && <Attachments attachments={message.attachments} />}
        </div>
      </article>
    </BlockScope>
  );
}
