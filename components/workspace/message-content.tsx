"use client";

import type { ReactNode } from "react";
import { Attachments } from "@/components/blocks/attachments";
import { BlockList } from "@/components/blocks/block-list";
import { richTextParagraph, richTextParts } from "@/components/blocks/rich-text";
import { asObject, type Json } from "@/components/blocks/shape";
import { Mrkdwn, mrkdwnParagraphs } from "@/components/blocks/text";

const BODY = "text-[15px] leading-relaxed text-slate-800";

/**
 * A message's body as the member's client shows it: its blocks (its `text` is then only the notification's
 * fallback, as on the platform) or its mrkdwn text, then its attachments. The author line is the list's.
 * A message of text alone (most of a long channel's) has its paragraphs in one box, spaced and wrapped as
 * Mrkdwn's box does, not in Mrkdwn's box inside this one; and this is a function, not a component: a row
 * the list mounts as it scrolls holds its box and paragraphs, and no component around them.
 */
export function messageContent({ text, blocks, attachments }: { text?: string; blocks?: readonly unknown[]; attachments?: unknown }): ReactNode {
  const list = blocks ?? [];
  const attached = Array.isArray(attachments) ? attachments : [];
  if (list.length === 0 && attached.length === 0) return <div className={`space-y-1 break-words ${BODY}`}>{text ? mrkdwnParagraphs(text) : null}</div>;
  // A member's post (its text as the one rich_text block a client sends): its parts in the content's box, as
  // RichTextBlock's box inside BlockList's would space and wrap them, without the two boxes and the components.
  // A post of one paragraph (most are) is that paragraph alone, with the box's look: one element less a row.
  const written = attached.length === 0 ? postedRichText(list) : null;
  if (written)
    return (
      richTextParagraph(written, `break-words ${BODY} [overflow-wrap:anywhere]`) ?? (
        <div className={`space-y-1 break-words ${BODY} [overflow-wrap:anywhere]`}>{richTextParts(written)}</div>
      )
    );
  return (
    <div className={`space-y-1.5 ${BODY} [overflow-wrap:anywhere]`}>
      {list.length > 0 ? <BlockList blocks={list} /> : text ? <Mrkdwn text={text} /> : null}
      {attached.length > 0 && <Attachments attachments={attached} />}
    </div>
  );
}

/** A message's blocks when they are one rich_text block, as a member's client sends a post; null otherwise. */
function postedRichText(blocks: readonly unknown[]): Json | null {
  const block = blocks.length === 1 ? asObject(blocks[0]) : null;
  return block?.type === "rich_text" ? block : null;
}

/**
 * Whether a message's content is more than text (blocks other than a post's rich text, attachments): what
 * its controls act through (its own BlockContext), and a height its text does not tell.
 */
export const hasBlocksOrAttachments = (message: { blocks?: readonly unknown[]; attachments?: unknown }): boolean =>
  (Array.isArray(message.attachments) && message.attachments.length > 0) ||
  (message.blocks !== undefined && message.blocks.length > 0 && !postedRichText(message.blocks));
