import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/events/route";
import { getEventFeed } from "@/lib/events/feed";
import { EVENT_BODY_TIMEOUT_MS } from "@/lib/events/receive";

/** What the server's logger writes, line by line (the real logger, with its format and redaction). */
const logLines = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/log")>();
  return { ...actual, logger: actual.createLogger("info", { write: (line: string) => void logLines.push(line) }) };
});

const URL_ = "http://localhost:3000/api/events";
const nowS = () => String(Math.floor(Date.now() / 1000));
/** Well-formed, so only the body can tell it is wrong. */
const SOME_SIGNATURE = `v0=${"ab".repeat(32)}`;

/** A body that sends `first` (if any), then nothing more, as a slow or stalled client does; records whether it was read. */
function stalledBody(first?: string) {
  const state = { pulls: 0 };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first !== undefined) controller.enqueue(new TextEncoder().encode(first));
    },
    pull() {
      state.pulls += 1;
      return new Promise<void>(() => {});
    },
  });
  return { stream, state };
}

function post(headers: Record<string, string>, body: ReadableStream<Uint8Array>): Promise<Response> {
  return POST(new Request(URL_, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit));
}

/** The answer, or a failure after `ms` (the request would otherwise hang for as long as its body does). */
function within<T>(promise: Promise<T>, ms = 1000): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))]);
}

beforeEach(() => {
  logLines.length = 0;
  getEventFeed().clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("POST /api/events and its request body", () => {
  it.each([
    ["no timestamp", { "x-slack-signature": SOME_SIGNATURE }],
    ["a timestamp older than 5 minutes", { "x-slack-request-timestamp": String(Number(nowS()) - 6 * 60), "x-slack-signature": SOME_SIGNATURE }],
    ["a timestamp that is not a number", { "x-slack-request-timestamp": "soon", "x-slack-signature": SOME_SIGNATURE }],
    ["no signature", { "x-slack-request-timestamp": nowS() }],
    ["a signature that is not v0", { "x-slack-request-timestamp": nowS(), "x-slack-signature": "v1=abc" }],
  ])("refuses %s with 401 at once, without waiting for the body", async (_, headers) => {
    const { stream, state } = stalledBody('{"type":"event_callback"');
    const response = await within(post(headers, stream));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ ok: false, error: "invalid_signature" });
    expect(state.pulls).toBe(0);
  });

  it(`answers 408 when the body takes longer than ${EVENT_BODY_TIMEOUT_MS / 1000} s, and logs one line`, async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { stream } = stalledBody('{"type":"event_callback","pad":"');
    const answer = post({ "x-slack-request-timestamp": nowS(), "x-slack-signature": SOME_SIGNATURE }, stream);
    let settled = false;
    void answer.finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(EVENT_BODY_TIMEOUT_MS - 100);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    const response = await answer;
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ ok: false, error: "request_timeout" });
    expect(logLines).toHaveLength(1);
    expect(JSON.parse(logLines[0]!)).toMatchObject({ level: 40, problem: "too_slow", receivedBytes: 32 });
    expect(getEventFeed().recent()).toEqual([]);
  });

  it("answers a body the client abandoned mid-way without throwing, and logs one line, no stack trace", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"type":"event_'));
        // What the server's request body does when the client's connection goes away.
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const response = await within(post({ "x-slack-request-timestamp": nowS(), "x-slack-signature": SOME_SIGNATURE }, stream));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, error: "body_aborted" });
    expect(logLines).toHaveLength(1);
    const line = logLines[0]!;
    expect(line.trimEnd()).not.toContain("\n");
    expect(line).not.toMatch(/stack|\bat .*\(/);
    expect(JSON.parse(line)).toMatchObject({ level: 40, problem: "aborted" });
  });
});
