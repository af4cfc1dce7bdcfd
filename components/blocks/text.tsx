"use client";

import type { ReactNode } from "react";
import { LocalTime } from "@/components/local-time";
import { useBlockHandlers } from "./block-context";
import { emojiFor } from "./emoji";
import { parseMrkdwn, type InlineToken } from "./mrkdwn";
import { safeHref } from "./safe-url";
import { asObject, asString } from "./shape";

export const MENTION = "rounded bg-sky-100 px-0.5 font-medium text-sky-800";
export const CODE = "rounded border border-slate-200 bg-slate-100 px-1 py-px font-mono text-[0.85em] text-rose-700";
export const PRE = "whitespace-pre-wrap rounded border border-slate-200 bg-slate-50 p-2 font-mono text-xs text-slate-800";
export const QUOTE = "border-l-4 border-slate-300 pl-3";
const LINK = "text-sky-700 underline decoration-sky-700/40 hover:decoration-sky-700";

/** A link the member may follow, or its text alone when its URL is not a web or mail link. */
export function SafeLink({ url, children }: { url: string; children?: ReactNode }) {
  const href = safeHref(url);
  const label = children ?? url;
  if (!href) return <span>{label}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className={LINK}>
      {label}
    </a>
  );
}

export function Emoji({ name, unicode }: { name: string; unicode?: string }) {
  const glyph = unicode ? glyphOf(unicode) : emojiFor(name);
  return glyph ? (
    <span role="img" aria-label={name.replaceAll("_", " ")}>
      {glyph}
    </span>
  ) : (
    <span>:{name}:</span>
  );
}

/** A rich_text emoji's `unicode` is its code points in hex, dash-separated ("1f44d" or "1f469-200d-1f4bb"). */
function glyphOf(unicode: string): string | null {
  const points = unicode.split("-").map((hex) => Number.parseInt(hex, 16));
  return points.every((p) => Number.isInteger(p) && p > 0 && p <= 0x10ffff) ? String.fromCodePoint(...points) : null;
}

export function UserMention({ id, label }: { id: string; label?: string | null }) {
  const name = useBlockHandlers().userName?.(id) ?? label ?? id;
  return <span className={MENTION}>@{name}</span>;
}

export function ChannelMention({ id, label }: { id: string; label?: string | null }) {
  const name = useBlockHandlers().channelName?.(id) ?? label ?? id;
  return <span className={MENTION}>#{name}</span>;
}

/**
 * `<!date^…>` and rich_text dates: the time in the member's own zone and locale; the fallback when the stamp is
 * not a number or not a date (a stamp in microseconds is past the last date a Date holds, and writing it threw).
 */
export function DateText({ timestamp, fallback }: { timestamp: number; fallback: string }) {
  if (!Number.isFinite(timestamp) || Number.isNaN(new Date(timestamp * 1000).getTime())) return <span>{fallback}</span>;
  return <LocalTime at={timestamp * 1000} date="always" precision="minute" />;
}

/**
 * mrkdwn's inline tokens as nodes: a function, not a component, so that a long list's rows mount no
 * component of their own for their text (what a row mounts is what a scroll frame pays).
 */
function inline(tokens: InlineToken[]): ReactNode[] {
  return tokens.map((t, i) => {
    switch (t.kind) {
      // Text as text, in no element of its own: a long list's rows mount one less each.
      case "text":
        return t.text;
      case "bold":
        return (
          <strong key={i} className="font-semibold">
            {inline(t.children)}
          </strong>
        );
      case "italic":
        return <em key={i}>{inline(t.children)}</em>;
      case "strike":
        return <s key={i}>{inline(t.children)}</s>;
      case "code":
        return (
          <code key={i} className={CODE}>
            {t.text}
          </code>
        );
      case "link":
        return (
          <SafeLink key={i} url={t.url}>
            {t.label}
          </SafeLink>
        );
      case "user":
        return <UserMention key={i} id={t.id} label={t.label} />;
      case "channel":
        return <ChannelMention key={i} id={t.id} label={t.label} />;
      case "usergroup":
        return (
          <span key={i} className={MENTION}>
            @{t.label ?? t.id}
          </span>
        );
      case "broadcast":
        return (
          <span key={i} className="rounded bg-amber-100 px-0.5 font-medium text-amber-900">
            @{t.range}
          </span>
        );
      case "date":
        return <DateText key={i} timestamp={t.timestamp} fallback={t.fallback} />;
      case "emoji":
        return <Emoji key={i} name={t.name} />;
    }
  });
}

/** mrkdwn as a member reads it: paragraphs of lines, ``` blocks and > quotes. */
export function Mrkdwn({ text }: { text: string }) {
  return <div className="space-y-1 break-words">{mrkdwnParagraphs(text)}</div>;
}

/**
 * mrkdwn's paragraphs, ``` blocks and > quotes, in no box of their own: for a box that spaces them as Mrkdwn's
 * does. A function, as `inline` is: a message list's row mounts its paragraphs and nothing around them.
 */
export function mrkdwnParagraphs(text: string): ReactNode[] {
  return parseMrkdwn(text).map((token, i) =>
    token.kind === "pre" ? (
      <pre key={i} className={PRE}>
        {token.text}
      </pre>
    ) : token.kind === "quote" ? (
      <blockquote key={i} className={QUOTE}>
        {token.lines.map((line, j) => (
          <p key={j} className="min-h-[1lh]">
            {inline(line)}
          </p>
        ))}
      </blockquote>
    ) : (
      <p key={i} className="min-h-[1lh]">
        {inline(token.children)}
      </p>
    ),
  );
}

const EMOJI_NAME = /:([a-z0-9_+\-']+(?:::skin-tone-[2-6])?):/g;

/** plain_text: the text as written, with :emoji: names turned to emoji when `emoji` is not false. */
export function PlainText({ text, emoji = true }: { text: string; emoji?: boolean }) {
  if (!emoji) return <>{text}</>;
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(EMOJI_NAME)) {
    parts.push(text.slice(last, match.index), <Emoji key={match.index} name={match[1]!} />);
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}

/** A text object (plain_text or mrkdwn), or a bare string read as mrkdwn (a message's `text`). */
export function TextObject({ value }: { value: unknown }) {
  if (typeof value === "string") return <Mrkdwn text={value} />;
  const object = asObject(value);
  const text = asString(object?.text) ?? "";
  if (object?.type === "plain_text") return <PlainText text={text} emoji={object.emoji !== false} />;
  return <Mrkdwn text={text} />;
}
