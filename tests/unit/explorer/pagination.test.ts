import { describe, expect, it } from "vitest";
import { currentCursor, pageNumber, popPage, pushPage, stackForSend, START } from "@/lib/explorer/pagination";
import { EMPTY_REQUEST, type ExplorerRequest } from "@/lib/explorer/params";

const shown: ExplorerRequest = { ...EMPTY_REQUEST, installation: "T1-A1", cursor: "c2" };
const onPage3 = pushPage(pushPage(START, "c1"), "c2");

describe("Send from the form during a walk by hand", () => {
  it("goes on with the walk when the form still holds the page's cursor, whatever the limit", () => {
    const { stack, continues } = stackForSend(onPage3, shown, { ...shown, limit: "5" });
    expect(continues).toBe(true);
    expect(pageNumber(stack)).toBe(3);
    expect(currentCursor(popPage(stack))).toBe("c1");
  });

  it("starts a walk of its own at a cursor typed by hand", () => {
    const { stack, continues } = stackForSend(onPage3, shown, { ...shown, cursor: "elsewhere" });
    expect(continues).toBe(false);
    expect(stack).toEqual({ cursors: ["elsewhere"] });
  });

  it("starts again when the method, installation or token changed, even with the same cursor", () => {
    for (const form of [
      { ...shown, method: "conversations.list" },
      { ...shown, installation: "T2-A1" },
      { ...shown, tokenKind: "user" as const },
    ]) {
      expect(stackForSend(onPage3, shown, form).continues).toBe(false);
    }
  });

  it("starts at page 1 when nothing has been sent yet", () => {
    expect(stackForSend(START, null, { ...shown, cursor: "" })).toEqual({ stack: START, continues: false });
  });
});
