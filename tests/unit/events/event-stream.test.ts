import { beforeEach, describe, expect, it } from "vitest";
import { GET as STREAM } from "@/app/api/events/stream/route";
import { EventFeed, getEventFeed, type ReceivedEvent } from "@/lib/events/feed";
import { eventFeedStream, visibleToTeams } from "@/lib/events/stream";
import { getStreamLimits, MAX_ANONYMOUS_STREAMS, sessionStreamKey, StreamLimits } from "@/lib/events/viewers";

let n = 0;
function event(teamId: string, bytes = 100): ReceivedEvent {
  n++;
  return {
    id: `ev-${n}`,
    receivedAt: Date.now(),
    envelopeType: "event_callback",
    eventType: "app_mention",
    eventId: `Ev${n}`,
    teamId,
    retryNum: null,
    retryReason: null,
    bytes,
    payload: { team_id: teamId, event: { type: "app_mention", text: "x".repeat(bytes) } },
  };
}

const decoder = new TextDecoder();
const everyone = visibleToTeams(new Set(["T1"]));

beforeEach(() => getEventFeed().clear());

describe("a viewer of the event stream", () => {
  it("that never reads is dropped once it falls too far behind, and its queue goes with it", async () => {
    const feed = new EventFeed();
    const closed: string[] = [];
    const stream = eventFeedStream(feed, new AbortController().signal, everyone, { maxLagBytes: 3_000_000, onClose: (why) => closed.push(why) });
    // The viewer's connection never takes anything: 18 events of 0.9 MB arrive.
    for (let i = 0; i < 18; i++) feed.publish(event("T1", 900_000));
    expect(closed).toEqual(["lagging"]);
    expect(feed.subscriberCount).toBe(0);
    // The connection is ended as a client going away would end it, so the server logs no error for it.
    await expect(stream.getReader().read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("that keeps reading gets every event, however many large ones come", async () => {
    const feed = new EventFeed();
    const abort = new AbortController();
    const reader = eventFeedStream(feed, abort.signal, everyone, { maxLagBytes: 3_000_000 }).getReader();
    let text = "";
    for (let i = 0; i < 18; i++) {
      feed.publish(event("T1", 900_000));
      while (!text.endsWith(`"}}}\n\n`)) text += decoder.decode((await reader.read()).value, { stream: true });
      text = "";
    }
    expect(feed.subscriberCount).toBe(1);
    abort.abort();
    expect(feed.subscriberCount).toBe(0);
  });

  it("is handed the same bytes as every other viewer: the snapshot and each event are encoded once, never copied", async () => {
    const feed = new EventFeed();
    feed.publish(event("T1", 500_000));
    const readers = [0, 1].map(() => eventFeedStream(feed, new AbortController().signal, everyone).getReader());
    const chunksOf = async (reader: ReadableStreamDefaultReader<Uint8Array>, count: number) => {
      const chunks: Uint8Array[] = [];
      for (let i = 0; i < count; i++) chunks.push((await reader.read()).value!);
      return chunks;
    };
    // retry, snapshot start, the event, snapshot end
    const [a, b] = await Promise.all(readers.map((r) => chunksOf(r, 4)));
    const big = (chunks: Uint8Array[]) => chunks.find((c) => c.byteLength > 500_000);
    expect(big(a!)).toBeDefined();
    expect(big(a!)).toBe(big(b!));
    feed.publish(event("T1", 600_000));
    const [c, d] = await Promise.all(readers.map((r) => chunksOf(r, 3)));
    expect(big(c!)).toBe(big(d!));
  });

  it("that takes nothing it was sent for too long counts as gone", async () => {
    const feed = new EventFeed();
    let clock = 0;
    const closed: string[] = [];
    eventFeedStream(feed, new AbortController().signal, everyone, { heartbeatMs: 5, maxStallMs: 1_000, now: () => clock, onClose: (why) => closed.push(why) });
    feed.publish(event("T1"));
    await new Promise((r) => setTimeout(r, 30));
    expect(closed).toEqual([]);
    clock = 1_500;
    await new Promise((r) => setTimeout(r, 30));
    expect(closed).toEqual(["stalled"]);
    expect(feed.subscriberCount).toBe(0);
  });

  it("that is idle gets a heartbeat, so a dead connection is noticed", async () => {
    const feed = new EventFeed();
    const abort = new AbortController();
    const reader = eventFeedStream(feed, abort.signal, everyone, { heartbeatMs: 10 }).getReader();
    let text = "";
    while (!text.includes(": keep-alive")) text += decoder.decode((await reader.read()).value);
    abort.abort();
  });
});

describe("stream limits", () => {
  it("hold a session to its share and the process to its total, and free a place when a stream ends", () => {
    const limits = new StreamLimits(2, 3, 4);
    const a1 = limits.admit("a");
    const a2 = limits.admit("a");
    expect(limits.admit("a")).toEqual({ ok: false, full: "session" });
    const b1 = limits.admit("b");
    const b2 = limits.admit("b");
    expect([a1, a2, b1, b2].every((x) => x.ok)).toBe(true);
    expect(limits.admit("c")).toEqual({ ok: false, full: "process" });
    if (a1.ok) {
      a1.release();
      a1.release();
    }
    expect(limits.openStreams).toBe(3);
    expect(limits.admit("c").ok).toBe(true);
  });

  it("name a session by its installations, not by anything it can change", () => {
    expect(sessionStreamKey([])).toBeNull();
    const one = sessionStreamKey([
      { id: "T1-A1", installedAt: 1 },
      { id: "T2-A1", installedAt: 2 },
    ]);
    expect(
      sessionStreamKey([
        { id: "T2-A1", installedAt: 2 },
        { id: "T1-A1", installedAt: 1 },
      ]),
    ).toBe(one);
    // Another browser's install of the same app into the same workspace is another session.
    expect(
      sessionStreamKey([
        { id: "T1-A1", installedAt: 3 },
        { id: "T2-A1", installedAt: 2 },
      ]),
    ).not.toBe(one);
  });
});

describe("GET /api/events/stream past its limits", () => {
  it("answers 429 with Retry-After, and opens again once a stream closes", async () => {
    const open = () => {
      const abort = new AbortController();
      return {
        abort,
        response: STREAM(new Request("http://localhost:3000/api/events/stream", { signal: abort.signal, headers: { "x-switchboard-request": "1" } })),
      };
    };
    const streams = [];
    for (let i = 0; i < MAX_ANONYMOUS_STREAMS; i++) {
      const s = open();
      expect((await s.response).status).toBe(200);
      streams.push(s);
    }
    const refused = await open().response;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ ok: false, error: "too_many_streams" });

    streams[0]!.abort.abort();
    expect(getStreamLimits().openStreams).toBe(MAX_ANONYMOUS_STREAMS - 1);
    const again = open();
    expect((await again.response).status).toBe(200);
    for (const s of [...streams, again]) s.abort.abort();
    expect(getStreamLimits().openStreams).toBe(0);
  });
});
