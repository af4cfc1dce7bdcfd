import { describe, expect, it } from "vitest";
import { previewOf } from "@/components/explorer/preview-source";

const args = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("previewOf: what the explorer previews for a request", () => {
  it("a chat.* call's blocks, attachments and text", () => {
    expect(previewOf("chat.postMessage", args({ channel: "C1", text: "hi", blocks: '[{"type":"divider"}]', attachments: '[{"text":"a"}]' }))).toEqual({
      kind: "message",
      message: { text: "hi", blocks: [{ type: "divider" }], attachments: [{ text: "a" }] },
      ephemeral: false,
      notes: [],
    });
    expect(previewOf("chat.postEphemeral", args({ text: "psst" }))).toMatchObject({ kind: "message", ephemeral: true });
  });

  it("says why blocks that do not parse, or are not an array, are not shown", () => {
    const broken = previewOf("chat.update", args({ text: "still here", blocks: '[{"type": "header",' }));
    expect(broken?.kind).toBe("message");
    expect(broken?.notes).toEqual([expect.stringMatching(/^blocks does not parse as JSON \(.+\): the preview shows the rest\.$/)]);
    expect(broken).toMatchObject({ message: { text: "still here" } });
    expect(previewOf("chat.scheduleMessage", args({ blocks: '{"blocks": []}' }))?.notes).toEqual([
      'blocks is not a list of blocks: the platform takes a JSON array ([{"type": "section", …}]).',
    ]);
    expect(previewOf("chat.postMessage", args({ blocks: '[{"text": "x"}]' }))?.notes).toEqual(["1 of the blocks has no type: the platform refuses them."]);
  });

  it("a views.* call's view, with a note for a type the platform does not take", () => {
    expect(previewOf("views.publish", args({ user_id: "U1", view: '{"type":"home","blocks":[]}' }))).toEqual({
      kind: "view",
      view: { type: "home", blocks: [] },
      notes: [],
    });
    expect(previewOf("views.open", args({ view: '{"type":"page"}' }))?.notes).toEqual(['view\'s type is "page": the platform takes "modal" or "home".']);
    expect(previewOf("views.push", args({ view: "[]" }))).toEqual({
      kind: "view",
      view: null,
      notes: ['view is not a view: the platform takes a JSON object ({"type": "modal", …}).'],
    });
    expect(previewOf("views.update", args({}))).toMatchObject({ view: null, notes: ["Type the view (a JSON object) to see it here."] });
  });

  it("no preview for other methods", () => {
    expect(previewOf("conversations.list", args({ blocks: "[]" }))).toBeNull();
    expect(previewOf("chat.delete", args({}))).toBeNull();
  });
});
