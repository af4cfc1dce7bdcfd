"use client";

import type { ReactNode } from "react";
import { asArray, asObject, asObjects, asString, type Json } from "./shape";
import { ChannelMention, CODE, DateText, Emoji, MENTION, PRE, QUOTE, SafeLink, UserMention } from "./text";

/** A run of rich text with its style (bold, italic, strike, code) applied around it; text with none is a text node alone. */
function styled(node: ReactNode, style: Json | null, key: number): ReactNode {
  let out = node;
  if (style?.code === true) out = <code className={CODE}>{out}</code>;
  if (style?.strike === true) out = <s>{out}</s>;
  if (style?.italic === true) out = <em>{out}</em>;
  if (style?.bold === true) out = <strong className="font-semibold">{out}</strong>;
  return out === node && typeof node === "string" ? node : <span key={key}>{out}</span>;
}

/**
 * A section's runs as nodes: a function, not a component, as `richTextParts` is, so that a member's post in
 * a long list mounts its paragraph and text and nothing around them (what a row mounts a scroll frame pays).
 */
function richElements(elements: unknown): ReactNode[] {
  return asObjects(elements).map((el, i) => {
    const style = asObject(el.style);
    switch (el.type) {
      case "text":
        return styled(asString(el.text) ?? "", style, i);
      case "link":
        return styled(<SafeLink url={asString(el.url) ?? ""}>{asString(el.text) || undefined}</SafeLink>, style, i);
      case "user":
        return <UserMention key={i} id={asString(el.user_id) ?? ""} />;
      case "channel":
        return <ChannelMention key={i} id={asString(el.channel_id) ?? ""} />;
      case "usergroup":
        return (
          <span key={i} className={MENTION}>
            @{asString(el.usergroup_id)}
          </span>
        );
      case "broadcast":
        return (
          <span key={i} className="rounded bg-amber-100 px-0.5 font-medium text-amber-900">
            @{asString(el.range)}
          </span>
        );
      case "emoji":
        return <Emoji key={i} name={asString(el.name) ?? ""} {...(typeof el.unicode === "string" ? { unicode: el.unicode } : {})} />;
      case "date":
        return <DateText key={i} timestamp={Number(el.timestamp)} fallback={asString(el.fallback) ?? ""} />;
      case "color":
        return <span key={i}>{asString(el.value)}</span>;
      default:
        return null;
    }
  });
}

function RichList({ list }: { list: Json }) {
  const ordered = list.style === "ordered";
  const indent = typeof list.indent === "number" ? Math.min(list.indent, 6) : 0;
  const items = asObjects(list.elements).map((section, i) => <li key={i}>{richElements(section.elements)}</li>);
  const className = `${ordered ? "list-decimal" : "list-disc"} space-y-0.5 pl-6`;
  return (
    <div style={{ marginLeft: `${indent * 1.25}rem` }}>
      {ordered ? (
        <ol className={className} start={typeof list.offset === "number" ? list.offset + 1 : undefined}>
          {items}
        </ol>
      ) : (
        <ul className={className}>{items}</ul>
      )}
    </div>
  );
}

/** rich_text's parts (sections, lists, quotes, preformatted text) in no box of their own: for a box that spaces them as RichTextBlock's does. */
export function richTextParts(block: Json): ReactNode[] {
  return asArray(block.elements).map((value, i) => {
    const part = asObject(value);
    switch (part?.type) {
      case "rich_text_section":
        return (
          <p key={i} className="whitespace-pre-wrap">
            {richElements(part.elements)}
          </p>
        );
      case "rich_text_list":
        return <RichList key={i} list={part} />;
      case "rich_text_quote":
        return (
          <blockquote key={i} className={`${QUOTE} whitespace-pre-wrap`}>
            {richElements(part.elements)}
          </blockquote>
        );
      case "rich_text_preformatted":
        return (
          <pre key={i} className={PRE}>
            {richElements(part.elements)}
          </pre>
        );
      default:
        return (
          <p key={i} className="text-xs text-slate-600">
            unsupported rich text: {asString(part?.type) ?? "(no type)"}
          </p>
        );
    }
  });
}

/**
 * rich_text of one section (what a member's client sends for most posts) as one paragraph with the given
 * look, for a row that holds it with no box around it; null when the block holds more than one section.
 */
export function richTextParagraph(block: Json, className: string): ReactNode {
  const parts = asArray(block.elements);
  const section = parts.length === 1 ? asObject(parts[0]) : null;
  if (section?.type !== "rich_text_section") return null;
  return <p className={`whitespace-pre-wrap ${className}`}>{richElements(section.elements)}</p>;
}

/** rich_text: sections, lists, quotes and preformatted text, each with styled runs, links, mentions, emoji and dates. */
export function RichTextBlock({ block }: { block: Json }) {
  return <div className="space-y-1 break-words">{richTextParts(block)}</div>;
}
