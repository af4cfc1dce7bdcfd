import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MemberViewWire } from "@/lib/emulator-admin/universal/schemas";
import { ActNote } from "@/components/workspace/act-note";
import { ModalDialog } from "@/components/workspace/modal-dialog";

const view = (id: string, title: string): MemberViewWire => ({
  id,
  app_id: "A1",
  type: "modal",
  blocks: [{ type: "input", block_id: "t", label: { type: "plain_text", text: "Title" }, element: { type: "plain_text_input", action_id: "t" } }],
  title: { type: "plain_text", text: title },
  submit: { type: "plain_text", text: "File" },
  close: { type: "plain_text", text: "Cancel" },
  errors: null,
});

const dialog = (busy: boolean) =>
  renderToStaticMarkup(
    createElement(ModalDialog, {
      stack: [view("V1", "New ticket"), view("V2", "Details")],
      names: { userName: () => undefined, channelName: () => undefined },
      onSubmit: () => undefined,
      onBack: () => undefined,
      onCloseAll: () => undefined,
      onAction: () => undefined,
      busy,
    }),
  );

/** The `<button>` tags of the view on top (the last, the one not hidden), by their label or text. */
function topButtons(html: string): Record<string, string> {
  expect(html).toContain('<div hidden=""><section');
  const top = html.slice(html.lastIndexOf("<div><section"));
  const buttons: Record<string, string> = {};
  for (const match of top.matchAll(/<button([^>]*)>([\s\S]*?)<\/button>/g)) {
    const label = /aria-label="([^"]+)"/.exec(match[1]!)?.[1] ?? match[2]!.replace(/<[^>]+>/g, "");
    buttons[label] = match[1]!;
  }
  return buttons;
}

describe("the modal while one of its acts is on its way", () => {
  it("disables Submit, Back, Cancel and ✕ of the view on top, so a double click sends one submission or Back", () => {
    const buttons = topButtons(dialog(true));
    expect(Object.keys(buttons).sort()).toEqual(["Back", "Cancel", "Close", "File"]);
    for (const attributes of Object.values(buttons)) expect(attributes).toContain('disabled=""');
  });

  it("leaves them enabled when nothing is on its way", () => {
    const buttons = topButtons(dialog(false));
    expect(Object.keys(buttons).sort()).toEqual(["Back", "Cancel", "Close", "File"]);
    for (const attributes of Object.values(buttons)) expect(attributes).not.toContain('disabled=""');
  });
});

describe("the act note of an HTTP error", () => {
  const note = (status: number) =>
    renderToStaticMarkup(createElement(ActNote, { record: { what: "/triage", answer: { outcome: "http_service_error", status, via: "http" } } }));

  it("calls a 401 the app refusing the request's signature", () => {
    expect(note(401)).toContain("(HTTP 401: the app refused the request&#x27;s signature)");
  });

  it("calls a 403 (or another status) by its number only: a 403 is no signature refusal", () => {
    expect(note(403)).toContain("(HTTP 403).");
    expect(note(403)).not.toContain("signature");
    expect(note(500)).toContain("(HTTP 500).");
  });
});
