import { describe, expect, it } from "vitest";
import { countOfList, summarizeAnswer } from "@/lib/explorer/answer-summary";

describe("the history's one-line summary of an answer", () => {
  it("counts a list by its field, and never writes a plural noun after 1", () => {
    expect(summarizeAnswer(200, { ok: true, messages: [{ ts: "1.0", text: "hi" }], has_more: false })).toBe("ok · 1 item of messages · last page");
    expect(summarizeAnswer(200, { ok: true, members: [{ id: "U1" }, { id: "U2" }], response_metadata: { next_cursor: "abc" } })).toBe(
      "ok · 2 members · more pages",
    );
    expect(countOfList(3001, "members")).toBe("3,001 members");
    expect(countOfList(0, "channels")).toBe("0 channels");
  });

  it("says the error, with missing_scope's needed scope and a 429's wait", () => {
    expect(summarizeAnswer(200, { ok: false, error: "missing_scope", needed: "channels:history" })).toBe("missing_scope · needs channels:history");
    expect(summarizeAnswer(429, { ok: false, error: "ratelimited" }, 30)).toBe("ratelimited · retry after 30 s");
  });
});
