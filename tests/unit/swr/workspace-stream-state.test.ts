import { describe, expect, it } from "vitest";
import { backoffMs, INITIAL_STREAM_STATE, nextStreamState, retryAfterMs, type WorkspaceStreamEvent } from "@/lib/swr/workspace-stream-state";

/**
 * What the Workspace page says of its live stream (lib/swr/workspace-stream-state.ts), and when it tries
 * again: refused with the route's reason and its Retry-After, reconnecting after a drop or a failure with a
 * growing pause, live again once the stream says ready.
 */

const run = (...events: WorkspaceStreamEvent[]) => events.reduce((state, event) => nextStreamState(state, event, 0), INITIAL_STREAM_STATE);

const tooMany: WorkspaceStreamEvent = {
  type: "closed",
  status: 429,
  code: "too_many_streams",
  message: "You already have the most live Workspace pages open that one person may: close another tab, or wait.",
  retryAfter: "15",
};

describe("the Workspace page's stream state", () => {
  it("is live once the stream is ready", () => {
    expect(INITIAL_STREAM_STATE).toEqual({ kind: "connecting" });
    expect(run({ type: "ready" })).toEqual({ kind: "live" });
  });

  it("shows a refusal with the route's code and message, and tries again after its Retry-After", () => {
    expect(run(tooMany)).toEqual({
      kind: "refused",
      attempt: 1,
      status: 429,
      code: "too_many_streams",
      message: tooMany.type === "closed" ? tooMany.message : "",
      retryInMs: 15_000,
    });
    // Refused again: the route's Retry-After still rules, however many attempts.
    expect(run(tooMany, tooMany, tooMany)).toMatchObject({ kind: "refused", attempt: 3, retryInMs: 15_000 });
    // A 403 is a refusal to show too, with the route's own message.
    expect(run({ type: "closed", status: 403, code: "not_allowed", message: "Only an admin may watch the emulated workspace." })).toMatchObject({
      kind: "refused",
      code: "not_allowed",
      message: "Only an admin may watch the emulated workspace.",
      retryInMs: 1_000,
    });
  });

  it("goes live again after a refusal, and a drop meanwhile does not hide why it was refused", () => {
    expect(run(tooMany, { type: "dropped" })).toMatchObject({ kind: "refused", code: "too_many_streams" });
    expect(run(tooMany, { type: "ready" })).toEqual({ kind: "live" });
  });

  it("reconnects after a drop or a failure with a growing pause, from the start once live again", () => {
    expect(run({ type: "ready" }, { type: "dropped" })).toEqual({ kind: "reconnecting", attempt: 1 });
    const failed = { type: "closed", status: 502 } as const;
    expect(run(failed)).toEqual({ kind: "reconnecting", attempt: 1, retryInMs: 1_000 });
    expect(run(failed, failed, failed)).toEqual({ kind: "reconnecting", attempt: 3, retryInMs: 4_000 });
    expect(run({ type: "closed", status: 0 }, { type: "closed", status: 0 })).toMatchObject({ retryInMs: 2_000 });
    // A 5xx's Retry-After is honoured too (a server restarting says when).
    expect(run({ type: "closed", status: 503, retryAfter: "5" })).toMatchObject({ kind: "reconnecting", retryInMs: 5_000 });
    expect(run(failed, failed, { type: "ready" }, failed)).toEqual({ kind: "reconnecting", attempt: 1, retryInMs: 1_000 });
  });

  it("opens again in a moment when, asked again, the route opens a stream (a tab closed meanwhile)", () => {
    expect(run(tooMany, { type: "closed", status: 200 })).toEqual({ kind: "reconnecting", attempt: 2, retryInMs: 500 });
  });

  it("reads Retry-After as seconds or a date, and caps the pause it grows itself at a minute", () => {
    expect(retryAfterMs("15")).toBe(15_000);
    expect(retryAfterMs(" 2 ")).toBe(2_000);
    expect(retryAfterMs("Thu, 01 Jan 1970 00:00:30 GMT", 0)).toBe(30_000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
    expect([1, 2, 3, 6, 7, 20].map(backoffMs)).toEqual([1_000, 2_000, 4_000, 32_000, 60_000, 60_000]);
  });
});
