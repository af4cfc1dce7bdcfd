/**
 * The platform's mrkdwn (https://docs.slack.dev/messaging/formatting-message-text) parsed to tokens, so that
 * the renderer builds React elements from them and never markup from a string. Lines first (``` blocks and
 * `>` quotes span lines), then each line's inline marks: `code` (nothing inside is formatted), <…> links and
 * mentions, :emoji:, and *bold*, _italic_, ~strike~, which may nest.
 */

export type InlineToken =
  | { kind: "text"; text: string }
  | { kind: "bold" | "italic" | "strike"; children: InlineToken[] }
  | { kind: "code"; text: string }
  | { kind: "link"; url: string; label: string | null }
  | { kind: "user"; id: string; label: string | null }
  | { kind: "channel"; id: string; label: string | null }
  | { kind: "usergroup"; id: string; label: string | null }
  | { kind: "broadcast"; range: "here" | "channel" | "everyone" }
  | { kind: "date"; timestamp: number; format: string; fallback: string }
  | { kind: "emoji"; name: string };

export type MrkdwnToken = { kind: "line"; children: InlineToken[] } | { kind: "pre"; text: string } | { kind: "quote"; lines: InlineToken[][] };

/** The platform escapes these three in message text; the member sees them as written. */
function unescape(text: string): string {
  return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

export function parseMrkdwn(source: string): MrkdwnToken[] {
  const tokens: MrkdwnToken[] = [];
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("```")) {
      // A preformatted block runs to the next line that ends with ```, or to the end of the text.
      const inner: string[] = [line.slice(3)];
      let closed = false;
      if (inner[0]!.endsWith("```") && inner[0]!.length >= 3) {
        inner[0] = inner[0]!.slice(0, -3);
        closed = true;
      }
      while (!closed && i + 1 < lines.length) {
        const next = lines[++i]!;
        if (next.endsWith("```")) {
          inner.push(next.slice(0, -3));
          closed = true;
        } else inner.push(next);
      }
      tokens.push({ kind: "pre", text: unescape(inner.join("\n").replace(/^\n|\n$/g, "")) });
      continue;
    }
    const quoted = /^(?:>|&gt;) ?(.*)$/.exec(line);
    if (quoted) {
      const last = tokens.at(-1);
      const parsed = parseInline(quoted[1]!);
      if (last?.kind === "quote") last.lines.push(parsed);
      else tokens.push({ kind: "quote", lines: [parsed] });
      continue;
    }
    tokens.push({ kind: "line", children: parseInline(line) });
  }
  return tokens;
}

const STYLE_MARKS: Record<string, "bold" | "italic" | "strike"> = { "*": "bold", _: "italic", "~": "strike" };

/** A mark opens at the start or after a non-word character, and closes before the end or a non-word character. */
const isBoundary = (ch: string | undefined) => ch === undefined || !/[\p{L}\p{N}]/u.test(ch);

export function parseInline(text: string): InlineToken[] {
  const out: InlineToken[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ kind: "text", text: unescape(plain) });
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "`") {
      const end = text.indexOf("`", i + 1);
      if (end > i + 1) {
        flush();
        out.push({ kind: "code", text: unescape(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (ch === "<") {
      const end = text.indexOf(">", i + 1);
      if (end > i + 1) {
        flush();
        out.push(parseAngle(text.slice(i + 1, end)));
        i = end + 1;
        continue;
      }
    }
    if (ch === ":") {
      const match = /^:([a-z0-9_+\-']+(?:::skin-tone-[2-6])?):/.exec(text.slice(i));
      if (match) {
        flush();
        out.push({ kind: "emoji", name: match[1]! });
        i += match[0].length;
        continue;
      }
    }
    const style = STYLE_MARKS[ch];
    if (style && isBoundary(text[i - 1]) && text[i + 1] !== undefined && text[i + 1] !== " ") {
      const end = closingMark(text, ch, i + 1);
      if (end !== -1) {
        flush();
        out.push({ kind: style, children: parseInline(text.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

/** Where the mark opened before `from` closes on this line: not after a space, and at a word's end. */
function closingMark(text: string, mark: string, from: number): number {
  for (let j = from + 1; j < text.length; j++) {
    if (text[j] === mark && text[j - 1] !== " " && isBoundary(text[j + 1])) return j;
  }
  return -1;
}

/** What is between < and >: a mention, a special mention, a date, or a link with its optional label. */
function parseAngle(inner: string): InlineToken {
  const bar = inner.indexOf("|");
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? null : unescape(inner.slice(bar + 1));
  if (target.startsWith("@")) return { kind: "user", id: target.slice(1), label };
  if (target.startsWith("#")) return { kind: "channel", id: target.slice(1), label };
  if (target.startsWith("!subteam^")) return { kind: "usergroup", id: target.slice("!subteam^".length), label };
  if (target === "!here" || target === "!channel" || target === "!everyone")
    return { kind: "broadcast", range: target.slice(1) as "here" | "channel" | "everyone" };
  if (target.startsWith("!date^")) {
    const [, ts, format = "{date_short}"] = target.split("^");
    return { kind: "date", timestamp: Number(ts), format, fallback: label ?? "" };
  }
  return { kind: "link", url: unescape(target), label };
}
