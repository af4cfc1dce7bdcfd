import { describe, expect, it } from "vitest";
import type { WorkspaceHistoryWire, WorkspaceMessageWire } from "@/lib/emulator-admin/universal/schemas";
import { EMPTY_HISTORY, messagesOf, withNewestPage, withOlderPage, withoutMessage, withThread } from "@/lib/swr/channel-history-state";

/**
 * Issue 41: what the Workspace page holds of a conversation read page by page, and changed by the live
 * stream thread by thread: older pages add above, a thread read again replaces what was held of it, a
 * deleted parent takes its replies, and the member's streamed ephemerals fall into their place in time.
 */

const m = (ts: string, text: string, thread_ts?: string): WorkspaceMessageWire => ({ ts, text, ...(thread_ts ? { thread_ts } : {}) });
const page = (messages: WorkspaceMessageWire[], next = "", ephemerals: WorkspaceMessageWire[] = []): WorkspaceHistoryWire => ({
  channel: { id: "C1", name: "general", type: "public", is_member: true, is_archived: false },
  messages,
  ephemerals,
  names: {},
  has_more: next !== "",
  response_metadata: { next_cursor: next },
});
const texts = (list: WorkspaceMessageWire[]) => list.map((x) => x.text);

describe("a conversation held page by page", () => {
  it("adds older pages above the newest and remembers where the next starts, until the first message", () => {
    let state = withNewestPage(EMPTY_HISTORY, page([m("3.0", "c"), m("4.0", "d")], "cur-1"));
    expect(state.older).toBe("cur-1");
    state = withOlderPage(state, page([m("1.0", "a"), m("2.0", "b")], ""));
    expect(texts(messagesOf(state, []))).toEqual(["a", "b", "c", "d"]);
    expect(state.older).toBe("");
    // The newest page read again (after an act) keeps what was read above and where reading stopped.
    state = withNewestPage(state, page([m("4.0", "d edited"), m("5.0", "e")], "cur-2"));
    expect(texts(messagesOf(state, []))).toEqual(["a", "b", "c", "d edited", "e"]);
    expect(state.older).toBe("");
  });

  it("replaces a thread read again, drops one read as gone, and a deleted parent takes its replies", () => {
    let state = withNewestPage(EMPTY_HISTORY, page([m("1.0", "parent"), m("1.5", "old reply", "1.0"), m("2.0", "other")]));
    state = withThread(state, "1.0", page([m("1.0", "parent", "1.0"), m("1.5", "old reply", "1.0"), m("1.7", "new reply", "1.0")]));
    expect(texts(messagesOf(state, []))).toEqual(["parent", "old reply", "new reply", "other"]);
    expect(texts(messagesOf(withThread(state, "2.0", page([])), []))).toEqual(["parent", "old reply", "new reply"]);
    expect(texts(messagesOf(withoutMessage(state, "1.0"), []))).toEqual(["other"]);
    expect(withoutMessage(state, "9.0")).toBe(state);
  });

  it("places the member's ephemerals, stored or streamed, in time, each once", () => {
    const state = withNewestPage(EMPTY_HISTORY, page([m("1.0", "a"), m("3.0", "c")], "", [m("2.0", "only you")]));
    expect(texts(messagesOf(state, [m("2.0", "only you"), m("4.0", "streamed")]))).toEqual(["a", "only you", "c", "streamed"]);
  });

  it("merges an older page into the list it had, as sorting afresh would: replies newer than held messages, a message read again", () => {
    let state = withNewestPage(EMPTY_HISTORY, page([m("5.0", "e"), m("7.0", "g")], "cur-1", [m("6.0", "only you")]));
    expect(texts(messagesOf(state, []))).toEqual(["e", "only you", "g"]);
    // An older page holds a thread whose reply came after the newest message, and "e" again (edited since).
    state = withOlderPage(state, page([m("3.0", "c"), m("1.0", "a"), m("8.0", "late reply", "1.0"), m("5.0", "e edited")], "cur-2"));
    const afresh = [...state.byTs.values(), ...state.ephemerals].sort((x, y) => (x.ts < y.ts ? -1 : 1));
    expect(texts(messagesOf(state, []))).toEqual(texts(afresh));
    expect(texts(messagesOf(state, []))).toEqual(["a", "c", "e edited", "only you", "g", "late reply"]);
    state = withOlderPage(state, page([m("0.5", "first")]));
    expect(texts(messagesOf(state, [m("9.0", "streamed")]))).toEqual(["first", "a", "c", "e edited", "only you", "g", "late reply", "streamed"]);
  });

  it("shows a message an older page carries twice once, as it holds it (the later copy)", () => {
    let state = withNewestPage(EMPTY_HISTORY, page([m("5.0", "e")], "cur-1"));
    messagesOf(state, []);
    state = withOlderPage(state, page([m("3.0", "c"), m("3.0", "c edited"), m("1.0", "a")], "cur-2"));
    expect(texts(messagesOf(state, []))).toEqual(["a", "c edited", "e"]);
  });

  it("keeps the names object while a page names no one new (rows that show names do not render again)", () => {
    const named = (p: WorkspaceHistoryWire, names: Record<string, string>) => ({ ...p, names });
    let state = withNewestPage(EMPTY_HISTORY, named(page([m("3.0", "c")], "cur-1"), { U1: "ada" }));
    const names = state.names;
    state = withOlderPage(state, named(page([m("2.0", "b")], "cur-2"), { U1: "ada" }));
    expect(state.names).toBe(names);
    state = withOlderPage(state, named(page([m("1.0", "a")]), { U2: "grace" }));
    expect(state.names).toEqual({ U1: "ada", U2: "grace" });
  });
});
