import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ViewSurface } from "@/components/blocks/view";

const modal = {
  type: "modal",
  title: { type: "plain_text", text: "New ticket" },
  submit: { type: "plain_text", text: "File" },
  blocks: [
    { type: "input", block_id: "title_block", label: { type: "plain_text", text: "Title" }, element: { type: "plain_text_input", action_id: "title" } },
    { type: "input", block_id: "due_block", label: { type: "plain_text", text: "Due" }, element: { type: "datepicker", action_id: "due" } },
  ],
};

describe("an app's error under an input block", () => {
  it("marks that block's control invalid and described by the error, and no other", () => {
    const html = renderToStaticMarkup(
      createElement(ViewSurface, { view: modal, appName: "Ticketer", handlers: { errors: { title_block: "A title has at least 5 characters." } } }),
    );
    const tag = (type: string) => html.match(new RegExp(`<input[^>]*type="${type}"[^>]*>`))?.[0] ?? "";
    const title = tag("text");
    expect(title).toContain('aria-invalid="true"');
    const describedBy = title.match(/aria-describedby="([^"]+)"/)?.[1] ?? "(none)";
    expect(html).toContain(`id="${describedBy}" role="alert" class="text-xs font-medium text-rose-700">A title has at least 5 characters.</p>`);
    const due = tag("date");
    expect(due).not.toBe("");
    expect(due).not.toContain(" aria-invalid=");
    expect(due).not.toContain(" aria-describedby=");
  });
});
