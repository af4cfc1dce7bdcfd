import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BlockContext } from "@/components/blocks/block-context";
import { MessageRow, type MessageHandlers, type OpenMenu } from "@/components/workspace/message-item";
import type { WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import { memberPostContent } from "@/lib/emulator/workspace/rich-text";

const NAMES: Record<string, string> = { U0ADA: "Ada", U0BOB: "Bob" };
const handlers: MessageHandlers = {
  me: "U0BOB",
  names: NAMES,
  apps: [],
  busy: false,
  channelName: (id) => (id === "C0GEN" ? "general" : undefined),
  onReact: () => {},
  onAction: () => {},
  onShortcut: () => {},
};

/** A row as the list renders it: inside the list's BlockContext (people's and channels' names), in its <ol>. */
function row(message: WorkspaceMessageWire, menu: OpenMenu | null = null, replies: WorkspaceMessageWire[] = []): string {
  const rowElement = createElement(MessageRow, {
    message,
    replies,
    opened: replies.length > 0,
    onToggle: () => {},
    handlers,
    renderReplyBox: (): ReactNode => null,
    index: 0,
    measure: () => {},
    start: 0,
    setSize: 1,
    menu,
    setMenu: () => {},
  });
  return renderToStaticMarkup(
    createElement(BlockContext.Provider, { value: { userName: (id) => NAMES[id], channelName: handlers.channelName } }, createElement("ol", null, rowElement)),
  );
}

const post = (text: string, extra: Partial<WorkspaceMessageWire> = {}): WorkspaceMessageWire => {
  const { blocks } = memberPostContent(text);
  return { ts: "1764400000.000100", user: "U0ADA", text, blocks, ...extra };
};

describe("a row of the Workspace page's message list", () => {
  it("shows a member's post as its paragraph, mentions named through the list, with no box or span around the text", () => {
    const html = row(post("hello <@U0BOB> in <#C0GEN|general>"));
    expect(html).toContain(">Ada</span>");
    // The paragraph is the row's content, with the content's look: no BlockList, RichTextBlock or content box around it.
    expect(html).toMatch(
      /<\/div><p class="whitespace-pre-wrap break-words text-\[15px\][^"]*">hello <span class="[^"]*">@Bob<\/span> in <span class="[^"]*">#general<\/span><\/p>/,
    );
    expect(html).toContain("<time");
    expect(html).toMatch(/<button type="button" aria-expanded="false" aria-label="React"[^>]*>\+ react<\/button>/);
    expect(html).not.toContain("React with");
  });

  it("opens its react menu under its button when the list says it is open, and is raised over the rows below", () => {
    const message = post("hi");
    const opener = { offsetTop: 0 } as HTMLButtonElement;
    const html = row(message, { ts: message.ts, row: message.ts, kind: "react", top: 64, left: 8, opener });
    expect(html).toMatch(/aria-expanded="true" aria-label="React"/);
    expect(html).toMatch(/<div class="absolute z-10" style="top:64px;left:8px">/);
    for (const name of ["+1", "white_check_mark", "eyes", "tada"]) expect(html).toContain(`aria-label="React with ${name}"`);
    expect(html).toMatch(/<li [^>]*class="[^"]* z-10"/);
    // Another row's open menu leaves this one closed.
    expect(row(message, null)).not.toContain("React with");
  });

  it("opens a thread reply's menu in the conversation's row, which is raised, the reply's own box left unpositioned", () => {
    const parent = post("a question");
    const reply = post("an answer", { ts: "1764400001.000100", thread_ts: parent.ts, user: "U0BOB" });
    const opener = { offsetTop: 0 } as HTMLButtonElement;
    const html = row(parent, { ts: reply.ts, row: parent.ts, kind: "react", top: 150, left: 24, opener }, [reply]);
    // The popup's place was measured from the conversation's row (the reply's box is not an offset parent).
    expect(html).toMatch(/<li class="[^"]*" data-ts="1764400001.000100">/);
    expect(html).not.toMatch(/<li class="[^"]*(relative|z-10)[^"]*" data-ts="1764400001.000100">/);
    expect(html).toMatch(/<li [^>]*data-ts="1764400000.000100"[^>]*class="[^"]* z-10"/);
    expect(html).toContain('<div class="absolute z-10" style="top:150px;left:24px">');
    // Only the reply's menu is open: the parent's react button says closed.
    expect(html.match(/aria-expanded="true" aria-label="React"/g)).toHaveLength(1);
  });

  it("writes a rich text date past what a Date holds as its fallback, not a page that fails", () => {
    const html = row(
      post("when", {
        blocks: [
          {
            type: "rich_text",
            elements: [{ type: "rich_text_section", elements: [{ type: "date", timestamp: 1764400000000000, fallback: "some day" }] }],
          },
        ],
      }),
    );
    expect(html).toContain("<span>some day</span>");
  });

  it("keeps a post of several paragraphs in one box that spaces them", () => {
    const section = (text: string) => ({ type: "text", text });
    const html = row(
      post("first", {
        blocks: [
          {
            type: "rich_text",
            elements: [
              { type: "rich_text_section", elements: [section("first")] },
              { type: "rich_text_quote", elements: [section("quoted")] },
            ],
          },
        ],
      }),
    );
    expect(html).toMatch(
      /<div class="space-y-1 break-words text-\[15px\][^"]*"><p class="whitespace-pre-wrap">first<\/p><blockquote class="[^"]*">quoted<\/blockquote><\/div>/,
    );
  });

  it("draws a message with other blocks through the block renderer, with handlers of its own", () => {
    const html = row({
      ts: "1764400000.000200",
      user: "U0ADA",
      text: "fallback",
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: "*Deploy* to <@U0BOB>?" } },
        { type: "actions", elements: [{ type: "button", action_id: "ship", text: { type: "plain_text", text: "Ship it" } }] },
      ],
    });
    expect(html).toContain('<strong class="font-semibold">Deploy</strong>');
    expect(html).toContain("@Bob");
    expect(html).toContain(">Ship it</button>");
    expect(html).not.toContain("fallback");
  });

  it("shows a message of text alone as mrkdwn paragraphs", () => {
    const html = row({ ts: "1764400000.000300", user: "U0ADA", text: "*bold* and `code`\nsecond line" });
    expect(html).toContain('<p class="min-h-[1lh]"><strong class="font-semibold">bold</strong> and <code');
    expect(html).toContain('<p class="min-h-[1lh]">second line</p>');
  });
});
