import { describe, expect, it } from "vitest";
import { serializeEvent, streamAllPages, walkAllPages, type UpstreamPage } from "@/lib/call/fetch-all";
import { readNdjson, type FetchAllEvent } from "@/lib/explorer/fetch-all-events";

/** A scripted upstream: each call answers the next response; the parameters it got are recorded. */
function scripted(responses: UpstreamPage[]) {
  const calls: Array<Record<string, string>> = [];
  return {
    calls,
    call: async (params: Record<string, string>) => {
      calls.push(params);
      const next = responses.shift();
      if (!next) throw new Error("no more responses");
      return next;
    },
  };
}

const page = (ids: string[], next: string | null): UpstreamPage => {
  const body = { ok: true, members: ids.map((id) => ({ id })), response_metadata: { next_cursor: next ?? "" } };
  return { status: 200, body, rawText: JSON.stringify(body), durationMs: 2 };
};

async function collect(gen: AsyncGenerator<{ event: FetchAllEvent }>) {
  const events: FetchAllEvent[] = [];
  for await (const step of gen) events.push(step.event);
  return events;
}

describe("the fetch-all walk", () => {
  it("follows next_cursor across a short page and stops only when it is empty", async () => {
    const upstream = scripted([page(["U1", "U2"], "c2="), page(["U3"], "c3="), page(["U4", "U5"], null)]);
    const events = await collect(walkAllPages({ call: upstream.call, params: { limit: "2" }, maxPages: 100, signal: new AbortController().signal }));
    expect(events.map((e) => e.type)).toEqual(["page", "page", "page", "done"]);
    expect(upstream.calls).toEqual([{ limit: "2" }, { limit: "2", cursor: "c2=" }, { limit: "2", cursor: "c3=" }]);
    expect(events.at(-1)).toMatchObject({ type: "done", pages: 3, items: 5, capped: false });
  });

  it("waits Retry-After on a 429, says so, and retries the same cursor", async () => {
    const limited: UpstreamPage = { status: 429, body: { ok: false, error: "ratelimited" }, rawText: "", durationMs: 1, retryAfterS: 3 };
    const upstream = scripted([page(["U1"], "c2="), limited, page(["U2"], null)]);
    const slept: number[] = [];
    const events = await collect(
      walkAllPages({
        call: upstream.call,
        params: {},
        maxPages: 100,
        signal: new AbortController().signal,
        sleep: async (ms) => void slept.push(ms),
      }),
    );
    expect(events.map((e) => e.type)).toEqual(["page", "ratelimited", "page", "done"]);
    expect(events[1]).toEqual({ type: "ratelimited", page: 2, retryAfterS: 3 });
    expect(slept).toEqual([3000]);
    expect(upstream.calls[1]).toEqual({ cursor: "c2=" });
    expect(upstream.calls[2]).toEqual({ cursor: "c2=" });
  });

  it("stops at the page cap and says it was capped", async () => {
    const upstream = scripted([page(["U1"], "c2="), page(["U2"], "c3=")]);
    const events = await collect(walkAllPages({ call: upstream.call, params: {}, maxPages: 2, signal: new AbortController().signal }));
    expect(events.at(-1)).toMatchObject({ type: "done", pages: 2, items: 2, capped: true });
    expect(upstream.calls).toHaveLength(2);
  });

  it("ends with the platform's error, such as invalid_cursor", async () => {
    const bad: UpstreamPage = { status: 200, body: { ok: false, error: "invalid_cursor" }, rawText: "", durationMs: 1 };
    const events = await collect(walkAllPages({ call: scripted([bad]).call, params: { cursor: "x" }, maxPages: 5, signal: new AbortController().signal }));
    expect(events).toEqual([{ type: "error", error: "invalid_cursor", page: 1 }]);
  });

  it("makes no upstream call beyond the one in flight once aborted", async () => {
    const controller = new AbortController();
    const upstream = scripted([page(["U1"], "c2="), page(["U2"], "c3="), page(["U3"], null)]);
    const seen: string[] = [];
    for await (const step of walkAllPages({ call: upstream.call, params: {}, maxPages: 100, signal: controller.signal })) {
      seen.push(step.event.type);
      controller.abort();
    }
    expect(seen).toEqual(["page"]);
    // Page 2 was asked for while page 1 was handed on; page 3 never is.
    expect(upstream.calls).toHaveLength(2);
  });
});

describe("a token refreshed while the body streams", () => {
  it("ends the request with a resume line at the next cursor, so a new request can save the token", async () => {
    const refreshed = { ...page(["U2"], "c3="), refreshed: true };
    const upstream = scripted([page(["U1"], "c2="), refreshed]);
    const events = await collect(walkAllPages({ call: upstream.call, params: {}, maxPages: 100, signal: new AbortController().signal }));
    expect(events.map((e) => e.type)).toEqual(["page", "page", "resume"]);
    expect(events[2]).toEqual({ type: "resume", page: 2, cursor: "c3=", reason: "token_refreshed" });
    expect(upstream.calls).toHaveLength(2);
  });

  it("goes on when the refresh came with the first page, made before the response started", async () => {
    const upstream = scripted([{ ...page(["U1"], "c2="), refreshed: true }, page(["U2"], null)]);
    const events = await collect(walkAllPages({ call: upstream.call, params: {}, maxPages: 100, signal: new AbortController().signal }));
    expect(events.map((e) => e.type)).toEqual(["page", "page", "done"]);
  });
});

describe("the NDJSON stream", () => {
  it("embeds the upstream page as it came and reads back across chunk boundaries", async () => {
    const upstream = page(["U1", "U2"], "c2=");
    const line = serializeEvent(
      { type: "page", page: 1, count: 2, total: 2, next_cursor: "c2=", ms: 2, response: upstream.body as Record<string, unknown> },
      upstream,
    );
    expect(line.endsWith(`"response":${upstream.rawText}}\n`)).toBe(true);
    const text = line + serializeEvent({ type: "done", pages: 1, items: 2, capped: false, ms: 5 });
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const events: unknown[] = [];
    for await (const event of readNdjson(stream)) events.push(event);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({ type: "page", response: { members: [{ id: "U1" }, { id: "U2" }] } });
    expect(events[1]).toMatchObject({ type: "done", items: 2 });
  });

  it("gives its place back when the browser left before the walk started (a signal aborted already), calling upstream with an aborted signal", async () => {
    const left = new AbortController();
    left.abort();
    let closed = 0;
    let upstreamSignal: AbortSignal | undefined;
    const call = async (_params: Record<string, string>, signal: AbortSignal) => {
      upstreamSignal = signal;
      return page(["U1"], null);
    };
    const describeError = () => ({ error: "internal_error", message: "" });
    await streamAllPages({ call, params: { limit: "1" }, maxPages: 10, signal: left.signal, describeError, onClose: () => closed++ }).catch(() => undefined);
    expect(closed).toBe(1);
    expect(upstreamSignal?.aborted ?? true).toBe(true);
  });
});
