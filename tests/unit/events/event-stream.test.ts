import { beforeEach, describe, expect, it } from "vitest";
import { GET as STREAM } from "@/app/api/events/stream/route";
import { EventFeed, getEventFeed, type ReceivedEvent } from "@/lib/events/feed";
import { closeEventStreams, eventFeedStream, visibleToTeams } from "@/lib/events/stream";
import { getStreamLimits, MAX_ANONYMOUS_STREAMS_PER_ADDRESS, personStreamKey, StreamLimits } from "@/lib/events/viewers";
import { addressBucket, clientAddress, PEER_ADDRESS_HEADER, recordPeerAddresses } from "@/lib/http/client-address";

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
const HEARTBEAT = ": keep-alive\n\n";

/** What a stream sends within `ms`, or until `enough` says so: a stream that goes quiet ends the read, not the test's timeout. */
async function readFor(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, enough: (text: string) => boolean): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), ms)));
  let text = "";
  try {
    while (!enough(text)) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "late" || next.done) break;
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
  }
  return text;
}

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

  it("is sent what it had, then a reconnect hint, and ended normally when the server shuts down (closeEventStreams)", async () => {
    const feed = new EventFeed();
    const closed: string[] = [];
    const streams = [0, 1, 2].map(() => eventFeedStream(feed, new AbortController().signal, everyone, { onClose: (why) => closed.push(why) }));
    feed.publish(event("T1", 50));
    const reading = streams.map(async (stream) => {
      const reader = stream.getReader();
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    });
    expect(await closeEventStreams(1_000, 5_000)).toBe(3);
    const texts = await Promise.all(reading);
    for (const text of texts) {
      // The event it was owed first, then the hint as the stream's last message: EventSource waits `retry` ms and reconnects.
      expect(text).toContain("event: received");
      const hint = /: the server is shutting down; reconnect\nretry: (\d+)\n\n$/.exec(text);
      expect(hint, text.slice(-120)).not.toBeNull();
      expect(Number(hint![1])).toBeGreaterThanOrEqual(1_000);
      expect(Number(hint![1])).toBeLessThanOrEqual(2_000);
    }
    // Ended as closed (not dropped as lagging or stalled), each unsubscribed, none left to close.
    expect(closed).toEqual(["closed", "closed", "closed"]);
    expect(feed.subscriberCount).toBe(0);
    expect(await closeEventStreams(1_000, 100)).toBe(0);
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
    /** Chunks until one past 500 KB (the event's own), which it answers. */
    const bigChunkOf = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      for (;;) {
        const chunk = (await reader.read()).value!;
        if (chunk.byteLength > 500_000) return chunk;
      }
    };
    // The snapshot: retry and its start, the event, its end.
    const [a, b] = await Promise.all(readers.map(bigChunkOf));
    expect(a).toBe(b);
    feed.publish(event("T1", 600_000));
    const [c, d] = await Promise.all(readers.map(bigChunkOf));
    expect(c).toBe(d);
    expect(c!.byteLength).toBeGreaterThan(600_000);
  });

  it("sends a live event in one write, and the small ones that waited together in one write, each once, in order", async () => {
    const feed = new EventFeed();
    const reader = eventFeedStream(feed, new AbortController().signal, everyone).getReader();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toContain("event: snapshot");
    // The viewer's connection is busy while five events arrive, then asks once.
    const published = Array.from({ length: 5 }, () => event("T1", 200));
    for (const e of published) feed.publish(e);
    const text = decoder.decode((await reader.read()).value);
    const received = text.split("\n\n").filter((m) => m.startsWith("event: received\ndata: "));
    expect(received.map((m) => (JSON.parse(m.slice("event: received\ndata: ".length)) as ReceivedEvent).id)).toEqual(published.map((e) => e.id));
    // One alone is one write too: the whole message.
    const last = event("T1", 200);
    feed.publish(last);
    expect(decoder.decode((await reader.read()).value)).toBe(`event: received\ndata: ${JSON.stringify(last)}\n\n`);
  });

  it("that reads gets every event once and in order, small and large mixed, however they are grouped", async () => {
    const feed = new EventFeed();
    const reader = eventFeedStream(feed, new AbortController().signal, everyone, { maxLagBytes: 8_000_000 }).getReader();
    const sizes = [100, 40_000, 50, 60, 10_000, 30_000, 70, 200_000, 5, 5, 5, 20_000, 20_000];
    const published = sizes.map((size) => event("T1", size));
    let text = "";
    const reading = (async () => {
      // Until the last message has ended, however its bytes were split.
      while ((text.match(/event: received\n/g) ?? []).length < published.length || !text.endsWith("\n\n")) {
        text += decoder.decode((await reader.read()).value, { stream: true });
      }
    })();
    for (const [i, e] of published.entries()) {
      feed.publish(e);
      if (i % 3 === 0) await new Promise((r) => setImmediate(r));
    }
    await reading;
    const ids = text
      .split("\n\n")
      .filter((m) => m.startsWith("event: received\ndata: "))
      .map((m) => (JSON.parse(m.slice("event: received\ndata: ".length)) as ReceivedEvent).id);
    expect(ids).toEqual(published.map((e) => e.id));
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
    // Two heartbeats every 10 ms: a second of reading is ample even on a busy machine.
    const text = await readFor(reader, 1_000, (sofar) => sofar.split(HEARTBEAT).length > 2);
    abort.abort();
    // The empty snapshot, then nothing but heartbeats: SSE comments, which EventSource ignores.
    expect(text, "what the idle viewer was sent in a second").toMatch(/^retry: 2000\n\nevent: snapshot\ndata: \[\]\n\n(: keep-alive\n\n){2,}$/);
  });
});

describe("stream limits", () => {
  it("hold a session to its share and the process to its total, and free a place when a stream ends", () => {
    const limits = new StreamLimits({ perSession: 2, perProcess: 4 });
    const a1 = limits.admit("a", "10.0.0.1");
    const a2 = limits.admit("a", "10.0.0.2");
    expect(limits.admit("a", "10.0.0.3")).toEqual({ ok: false, full: "session" });
    const b1 = limits.admit("b", "10.0.0.4");
    const b2 = limits.admit("b", "10.0.0.5");
    expect([a1, a2, b1, b2].every((x) => x.ok)).toBe(true);
    expect(limits.admit("c", "10.0.0.6")).toEqual({ ok: false, full: "process" });
    if (a1.ok) {
      a1.release();
      a1.release();
    }
    expect(limits.openStreams).toBe(3);
    expect(limits.admit("c", "10.0.0.6").ok).toBe(true);
  });

  it("hold one client address to its share, however many sessions its scripted installs make", () => {
    const limits = new StreamLimits({ perSession: 6, perAddress: 30, perProcess: 500 });
    const script = Array.from({ length: 84 * 6 }, (_, i) => limits.admit(`scripted-${Math.floor(i / 6)}`, "203.0.113.9"));
    expect(script.filter((a) => a.ok)).toHaveLength(30);
    expect(script.at(-1)).toEqual({ ok: false, full: "address" });
    // Everyone else still gets in.
    expect(limits.admit("someone", "198.51.100.7").ok).toBe(true);
    expect(limits.admit(null, "198.51.100.8").ok).toBe(true);
  });

  it("keep a share of the process for sessions with installations: cookie-less viewers are bounded per address and together", () => {
    const limits = new StreamLimits({ anonymousPerAddress: 6, anonymous: 10, perProcess: 12 });
    const fromOne = Array.from({ length: 24 }, () => limits.admit(null, "203.0.113.9"));
    expect(fromOne.filter((a) => a.ok)).toHaveLength(6);
    expect(fromOne.at(-1)).toEqual({ ok: false, full: "session" });
    for (let i = 0; i < 4; i++) expect(limits.admit(null, `203.0.113.${20 + i}`).ok).toBe(true);
    expect(limits.admit(null, "203.0.113.50")).toEqual({ ok: false, full: "anonymous" });
    // The two streams left are kept for sessions with installations.
    expect(limits.admit("installed", "198.51.100.7").ok).toBe(true);
    expect(limits.admit("installed", "198.51.100.7").ok).toBe(true);
  });

  it("name a session by the person signed in; without sign-in, count the operator's viewers by address and process only", () => {
    expect(personStreamKey(undefined)).toBeNull();
    expect(personStreamKey({ teamId: "T1", userId: "U1" })).toBe("T1:U1");
    expect(personStreamKey({ teamId: "T1", userId: "U2" })).not.toBe(personStreamKey({ teamId: "T1", userId: "U1" }));
    const limits = new StreamLimits({ perSession: 2, perAddress: 4, anonymousPerAddress: 1, perProcess: 10 });
    // The operator of a console without sign-in, with installations: a session's share does not apply, the address's does.
    const operator = Array.from({ length: 5 }, () => limits.admit(null, "127.0.0.1", false));
    expect(operator.map((a) => a.ok)).toEqual([true, true, true, true, false]);
    expect(operator.at(-1)).toEqual({ ok: false, full: "address" });
  });
});

describe("GET /api/events/stream past its limits", () => {
  // The server records each request's socket address (instrumentation-node.ts); here the test names it.
  recordPeerAddresses();
  const open = (peer: string, headers: Record<string, string> = {}) => {
    const abort = new AbortController();
    return {
      abort,
      response: STREAM(
        new Request("http://localhost:3000/api/events/stream", {
          signal: abort.signal,
          headers: { "x-switchboard-request": "1", [PEER_ADDRESS_HEADER]: peer, ...headers },
        }),
      ),
    };
  };

  it("answers 429 with Retry-After past an address's share, and opens again once a stream closes", async () => {
    const streams = [];
    for (let i = 0; i < MAX_ANONYMOUS_STREAMS_PER_ADDRESS; i++) {
      const s = open("203.0.113.9");
      expect((await s.response).status).toBe(200);
      streams.push(s);
    }
    const refused = await open("203.0.113.9").response;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ ok: false, error: "too_many_streams" });
    // Another client is not held to this one's share.
    const other = open("198.51.100.7");
    expect((await other.response).status).toBe(200);

    streams[0]!.abort.abort();
    expect(getStreamLimits().openStreams).toBe(MAX_ANONYMOUS_STREAMS_PER_ADDRESS);
    const again = open("203.0.113.9");
    expect((await again.response).status).toBe(200);
    for (const s of [...streams, other, again]) s.abort.abort();
    expect(getStreamLimits().openStreams).toBe(0);
  });

  it("takes no client's word for its address: an X-Forwarded-For it sends changes nothing without TRUSTED_PROXY", async () => {
    const streams = Array.from({ length: MAX_ANONYMOUS_STREAMS_PER_ADDRESS + 3 }, (_, i) => open("203.0.113.9", { "x-forwarded-for": `10.9.${i}.1` }));
    const statuses = await Promise.all(streams.map(async (s) => (await s.response).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_ANONYMOUS_STREAMS_PER_ADDRESS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    for (const s of streams) s.abort.abort();
    expect(getStreamLimits().openStreams).toBe(0);
  });
});

describe("a client's address", () => {
  it("is the socket's without a trusted proxy, whatever X-Forwarded-For says", () => {
    recordPeerAddresses();
    const headers = new Headers({ [PEER_ADDRESS_HEADER]: "::ffff:203.0.113.9", "x-forwarded-for": "10.0.0.1" });
    expect(clientAddress(headers, 0)).toBe("203.0.113.9");
  });

  it("is the entry the outermost trusted proxy appended to X-Forwarded-For, not what the client put before it", () => {
    const headers = new Headers({ [PEER_ADDRESS_HEADER]: "127.0.0.1", "x-forwarded-for": "10.0.0.1, 203.0.113.9" });
    expect(clientAddress(headers, 1)).toBe("203.0.113.9");
    expect(clientAddress(new Headers({ [PEER_ADDRESS_HEADER]: "127.0.0.1", "x-forwarded-for": "10.0.0.1, 203.0.113.9, 172.16.0.2" }), 2)).toBe("203.0.113.9");
    // A request that came past the proxy, with fewer entries than proxies: the socket's address.
    expect(clientAddress(new Headers({ [PEER_ADDRESS_HEADER]: "127.0.0.1" }), 1)).toBe("127.0.0.1");
  });

  it("counts an IPv6 client by its /64, since it may use any address of it", () => {
    expect(addressBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("[2001:0db8:0001:0002::9]")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("203.0.113.9")).toBe("203.0.113.9");
  });
});
