"use client";

import { Attachments } from "@/components/blocks/attachments";
import { BlockList } from "@/components/blocks/block-list";
import { Mrkdwn, MrkdwnParagraphs } from "@/components/blocks/text";

const BODY = "text-[15px] leading-relaxed text-slate-800";

/**
 * A message's body as the member's client shows it: its blocks (its `text` is then only the notification's
 * fallback, as on the platform) or its mrkdwn text, then its attachments. The author line is the list's.
 * A message of text alone (most of a long channel's) has its paragraphs in one box, spaced and wrapped as
 * Mrkdwn's box does, not in Mrkdwn's box inside this one: one element less in every row a list mounts.
 */
export function MessageContent({ text, blocks, attachments }: { text?: string; blocks?: readonly unknown[]; attachments?: unknown }) {
  const list = blocks ?? [];
  const attached = Array.isArray(attachments) ? attachments : [];
  if (list.length === 0 && attached.length === 0) {
    return text ? (
      <div className={`space-y-1 break-words ${BODY}`}>
        <MrkdwnParagraphs text={text} />
      </div>
    ) : (
      <div className={BODY} />
    );
  }
  return (
    <div className={`space-y-1.5 ${BODY} [overflow-wrap:anywhere]`}>
      {list.length > 0 ? <BlockList blocks={list} /> : text ? <Mrkdwn text={text} /> : null}
      {attached.length > 0 && <Attachments attachments={attached} />}
    </div>
  );
}
