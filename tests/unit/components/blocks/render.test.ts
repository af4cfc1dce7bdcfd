import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MessageView } from "@/components/blocks/message";
import { ViewSurface } from "@/components/blocks/view";

const message = (blocks: unknown[], attachments?: unknown[]) =>
  renderToStaticMarkup(
    createElement(MessageView, {
      message: { text: "fallback", blocks, ...(attachments ? { attachments } : {}) },
      author: { name: "Deploy Bot", app: true },
      time: "now",
    }),
  );

describe("the Block Kit renderer", () => {
  it("draws a message's author line, header, section with its button, and a mention as @id when no name is known", () => {
    const html = message([
      { type: "header", text: { type: "plain_text", text: "Deploy :rocket:" } },
      {
        type: "section",
        text: { type: "mrkdwn", text: "*Ready*, <@U0123>" },
        accessory: { type: "button", action_id: "go", text: { type: "plain_text", text: "Ship it" }, style: "danger" },
      },
    ]);
    expect(html).toContain("Deploy Bot");
    expect(html).toMatch(/<h3[^>]*>.*Deploy .*🚀.*<\/h3>/);
    expect(html).toContain('<strong class="font-semibold">Ready</strong>');
    expect(html).toContain(">@U0123</span>");
    expect(html).toMatch(/<button type="button" class="[^"]*bg-rose-700[^"]*">Ship it<\/button>/);
    // Blocks stand in for the text, which is only the notification's fallback.
    expect(html).not.toContain("fallback");
  });

  it("shows a javascript: link as text and never writes markup from a block's text", () => {
    const html = message([
      { type: "section", text: { type: "mrkdwn", text: "<javascript:alert(1)|click me> <https://ok.example|fine>" } },
      {
        type: "rich_text",
        elements: [
          {
            type: "rich_text_section",
            elements: [
              { type: "link", url: "javascript:alert(2)", text: "rich" },
              { type: "text", text: "<img src=x onerror=alert(3)>" },
            ],
          },
        ],
      },
    ]);
    expect(html).not.toContain("javascript:");
    expect(html).toContain("<span>click me</span>");
    expect(html).toContain("<span>rich</span>");
    expect(html).toContain('href="https://ok.example/"');
    expect(html).toContain("&lt;img src=x onerror=alert(3)&gt;");
    expect(html).not.toContain("<img");
  });

  it("names an unknown block, and draws the blocks around one whose fields are nonsense", () => {
    const html = message([
      { type: "carousel" },
      "not a block",
      { type: "section", text: 42, fields: "nope", accessory: { type: "teleporter" } },
      { type: "divider" },
    ]);
    expect(html).toContain("unsupported block: carousel");
    expect(html).toContain("unsupported block: &quot;not a block&quot;");
    expect(html).toContain("unsupported element: teleporter");
    expect(html).toContain("<hr");
  });

  it("draws legacy attachments: colour bar, pretext, title link, short fields and footer", () => {
    const html = message(
      [],
      [
        {
          color: "danger",
          pretext: "Heads up",
          title: "Incident 7",
          title_link: "https://status.example/7",
          fields: [{ title: "Sev", value: "*1*", short: true }],
          footer: "pager",
        },
      ],
    );
    expect(html).toContain("background-color:#e01e5a");
    expect(html).toContain("Heads up");
    expect(html).toContain('href="https://status.example/7"');
    expect(html).toContain("<dt");
    expect(html).toContain("pager");
    // No blocks: the text is the message.
    expect(html).toContain("fallback");
  });

  it("draws a modal with labelled inputs, (optional), hints and its submit and close texts", () => {
    const html = renderToStaticMarkup(
      createElement(ViewSurface, {
        appName: "Deploy Bot",
        view: {
          type: "modal",
          title: { type: "plain_text", text: "New ticket" },
          submit: { type: "plain_text", text: "File it" },
          blocks: [
            {
              type: "input",
              block_id: "t",
              label: { type: "plain_text", text: "Title" },
              hint: { type: "plain_text", text: "Short" },
              element: { type: "plain_text_input", action_id: "v" },
            },
            {
              type: "input",
              optional: true,
              label: { type: "plain_text", text: "Due" },
              element: { type: "datepicker", action_id: "d", initial_date: "2026-12-01" },
            },
            {
              type: "input",
              label: { type: "plain_text", text: "Kind" },
              element: { type: "radio_buttons", action_id: "k", options: [{ text: { type: "plain_text", text: "Bug" }, value: "bug" }] },
            },
          ],
        },
      }),
    );
    expect(html).toContain('aria-label="Modal: New ticket"');
    expect(html).toMatch(/<label id="([^"]+)" for="([^"]+)"[^>]*>Title<\/label><input id="\2" aria-labelledby="\1"/);
    expect(html).toContain("(optional)");
    expect(html).toContain('type="date"');
    expect(html).toContain('value="2026-12-01"');
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain("File it");
    expect(html).toContain("Cancel");
  });
});
