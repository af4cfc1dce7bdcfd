"use client";

import { Attachments } from "@/components/blocks/attachments";
import { BlockList } from "@/components/blocks/block-list";
import { Mrkdwn } from "@/components/blocks/text";

/**
 * A message's body as the member's client shows it: its blocks (its `text` is then only the notification's
 * fallback, as on the platform) or its mrkdwn text, then its attachments. The author line is the list's.
 */
export function MessageContent({ text, blocks, attachments }: { text?: string; blocks?: readonly unknown[]; attachments?: unknown }) {
  const list = blocks ?? [];
  const attached = Array.isArray(attachments) ? attachments : [];
  return (
    <div className="space-y-1.5 text-[15px] leading-relaxed text-slate-800 [overflow-wrap:anywhere]">
      {list.length > 0 ? <BlockList blocks={list} /> : text ? <Mrkdwn text={text} /> : null}
      {attached.length > 0 && <Attachments attachments={attached} />}
    </div>
  );
}
