/**
 * What a member's client sends with a post: the text as a `rich_text` block (one section of text, user,
 * channel, broadcast and link elements) and a `client_msg_id` (a UUID the client makes). The platform keeps
 * both on the message, so conversations.history and the `message` event show them
 * (https://docs.slack.dev/reference/block-kit/blocks/rich-text-block).
 */
import { randomBytes, randomUUID } from "node:crypto";

type Element = Record<string, unknown>;

/** `<@U…>`, `<#C…|name>`, `<!here>`, `<https://…|label>`: the markup a client writes for what it shows. */
const MARKUP = /<([@#!]?)([^<>|]+)(?:\|([^<>]*))?>/g;

const BROADCASTS = new Set(["here", "channel", "everyone"]);

/** Undoes the escaping of `&`, `<` and `>` the text carries: elements hold what the member typed. */
const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

function markupElement(sigil: string, target: string, label: string | undefined): Element | undefined {
  if (sigil === "@") return { type: "user", user_id: target };
  if (sigil === "#") return { type: "channel", channel_id: target };
  if (sigil === "!") return BROADCASTS.has(target) ? { type: "broadcast", range: target } : undefined;
  if (/^(https?|mailto):/i.test(target)) return { type: "link", url: target, ...(label ? { text: unescape(label) } : {}) };
  return undefined;
}

/** The elements of the text's one section, in order. */
export function richTextElements(text: string): Element[] {
  const elements: Element[] = [];
  const pushText = (part: string) => {
    if (part === "") return;
    const last = elements.at(-1);
    if (last?.type === "text") last.text = `${String(last.text)}${unescape(part)}`;
    else elements.push({ type: "text", text: unescape(part) });
  };
  let at = 0;
  for (const match of text.matchAll(MARKUP)) {
    pushText(text.slice(at, match.index));
    const element = markupElement(match[1] ?? "", match[2] ?? "", match[3]);
    if (element) elements.push(element);
    else pushText(match[0]);
    at = match.index + match[0].length;
  }
  pushText(text.slice(at));
  return elements;
}

const BLOCK_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A block id as a client makes one: five letters and digits. */
function clientBlockId(): string {
  return [...randomBytes(5)].map((b) => BLOCK_ID_ALPHABET[b % BLOCK_ID_ALPHABET.length]).join("");
}

/** The blocks and client_msg_id a member's client posts `text` with. */
export function memberPostContent(text: string): { text: string; blocks: unknown[]; client_msg_id: string } {
  return {
    text,
    blocks: [{ type: "rich_text", block_id: clientBlockId(), elements: [{ type: "rich_text_section", elements: richTextElements(text) }] }],
    client_msg_id: randomUUID(),
  };
}
