import { beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/events/route";
import { GET as STREAM } from "@/app/api/events/stream/route";
import { getConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator";
import { encodeEvent, EVENT_FEED_MAX_BYTES, getEventFeed, type ReceivedEvent } from "@/lib/events/feed";
import { MAX_EVENT_BODY_BYTES } from "@/lib/events/receive";
import { eventFeedStream, visibleToTeams } from "@/lib/events/stream";
import { signRequest } from "@/lib/events/signature";

const URL_ = "http://localhost:3000/api/events";
const nowS = () => String(Math.floor(Date.now() / 1000));

function signed(body: string, headers: Record<string, string> = {}, secret = getConfig().signingSecret, ts = nowS()): Request {
  return new Request(URL_, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-slack-request-timestamp": ts,
      "x-slack-signature": signRequest(secret, ts, body),
      ...headers,
    },
    body,
  });
}

const mention = (text: string) =>
  JSON.stringify({
    type: "event_callback",
    team_id: "T0001",
    api_app_id: "A0001",
    event_id: "Ev0001",
    event_time: 1_700_000_000,
    event: { type: "app_mention", user: "U0001", text, channel: "C0001", ts: "1700000000.000100" },
  });

beforeEach(() => getEventFeed().clear());

describe("POST /api/events", () => {
  it("echoes the challenge of a signed url_verification request", async () => {
    const response = await POST(
      signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" })),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("acknowledges a signed event_callback with an empty 200 and adds it to the feed", async () => {
    const started = Date.now();
    const response = await POST(signed(mention("<@UBOT> hello")));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(Date.now() - started).toBeLessThan(3000);
    const [event] = getEventFeed().recent();
    expect(event).toMatchObject({ envelopeType: "event_callback", eventType: "app_mention", eventId: "Ev0001", teamId: "T0001", retryNum: null });
    expect(event?.payload).toMatchObject({ event: { text: "<@UBOT> hello" } });
  });

  it("keeps the envelope's verification token out of the feed", async () => {
    const verificationToken = ["verif", "ication", "value", "42"].join("-");
    const body = JSON.stringify({ ...JSON.parse(mention("<@UBOT> with a token")), token: verificationToken });
    expect((await POST(signed(body))).status).toBe(200);
    const [event] = getEventFeed().recent();
    expect(event?.payload).toMatchObject({ event: { text: "<@UBOT> with a token" } });
    expect(event?.payload).not.toHaveProperty("token");
    expect(JSON.stringify(event)).not.toContain(verificationToken);
  });

  it("records the platform's retry headers", async () => {
    await POST(signed(mention("again"), { "x-slack-retry-num": "2", "x-slack-retry-reason": "http_timeout" }));
    expect(getEventFeed().recent()[0]).toMatchObject({ retryNum: 2, retryReason: "http_timeout" });
  });

  it("accepts an event signed by the emulator's legacy app, whose installations the console holds too", async () => {
    const legacy = defaultAppCredentials(getConfig().emulator.seed, "legacy");
    expect(legacy.signingSecret).not.toBe(getConfig().signingSecret);
    expect((await POST(signed(mention("to the legacy app"), {}, legacy.signingSecret))).status).toBe(200);
    expect(getEventFeed().recent()[0]?.payload).toMatchObject({ event: { text: "to the legacy app" } });
  });

  it("refuses a forged signature with 401 and feeds nothing", async () => {
    const response = await POST(signed(mention("forged"), {}, "not-the-signing-secret"));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_signature" });
    expect(getEventFeed().recent()).toEqual([]);
  });

  it("refuses a url_verification with a forged signature, without echoing the challenge", async () => {
    const response = await POST(signed(JSON.stringify({ type: "url_verification", challenge: "abc" }), {}, "wrong"));
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("abc");
  });

  it("refuses a replayed request older than 5 minutes", async () => {
    const old = String(Math.floor(Date.now() / 1000) - 6 * 60);
    const response = await POST(signed(mention("replay"), {}, getConfig().signingSecret, old));
    expect(response.status).toBe(401);
    expect(getEventFeed().recent()).toEqual([]);
  });

  it("refuses a body changed after signing", async () => {
    const ts = nowS();
    const request = new Request(URL_, {
      method: "POST",
      headers: { "x-slack-request-timestamp": ts, "x-slack-signature": signRequest(getConfig().signingSecret, ts, mention("a")) },
      body: mention("b"),
    });
    expect((await POST(request)).status).toBe(401);
  });

  it("refuses a request without signature headers", async () => {
    const response = await POST(new Request(URL_, { method: "POST", body: mention("x") }));
    expect(response.status).toBe(401);
  });

  it("answers 400 to a signed body that is not an event envelope", async () => {
    expect((await POST(signed("not json"))).status).toBe(400);
    expect((await POST(signed(JSON.stringify({ no: "type" })))).status).toBe(400);
  });

  it("answers 413 to an oversized body without verifying it", async () => {
    const response = await POST(signed(JSON.stringify({ type: "event_callback", pad: "x".repeat(1024 * 1024 + 1) })));
    expect(response.status).toBe(413);
  });
});

const received = (id: string, bytes = 100): ReceivedEvent => ({
  id,
  receivedAt: 0,
  envelopeType: "event_callback",
  eventType: "app_mention",
  eventId: null,
  teamId: "T0001",
  retryNum: null,
  retryReason: null,
  bytes,
  payload: {},
});

describe("the event feed", () => {
  it("keeps only the last 200 events, newest first", async () => {
    const feed = getEventFeed();
    for (let i = 0; i < 205; i += 1) feed.publish(received(String(i)));
    const recent = feed.recent();
    expect(recent).toHaveLength(200);
    expect(recent[0]?.id).toBe("204");
    expect(recent.at(-1)?.id).toBe("5");
  });

  it("keeps at most 8 MB of request bodies, dropping the oldest, however few events that is", async () => {
    const feed = getEventFeed();
    for (let i = 0; i < 20; i += 1) feed.publish(received(String(i), MAX_EVENT_BODY_BYTES));
    const recent = feed.recent();
    expect(recent.reduce((sum, e) => sum + e.bytes, 0)).toBeLessThanOrEqual(EVENT_FEED_MAX_BYTES);
    expect(recent.map((e) => e.id)).toEqual(["19", "18", "17", "16", "15", "14", "13", "12"]);
  });

  it("records each request's body size", async () => {
    const body = mention("sized");
    await POST(signed(body));
    expect(getEventFeed().recent()[0]?.bytes).toBe(Buffer.byteLength(body));
  });
});

function sseReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const state = { text: "" };
  const readUntil = async (needle: string) => {
    while (!state.text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before ${needle}`);
      state.text += decoder.decode(value);
    }
  };
  return { state, readUntil };
}

describe("the event stream", () => {
  it("sends the kept events of the viewer's workspaces, then each new one live, and unsubscribes when the client leaves", async () => {
    await POST(signed(mention("before")));
    await POST(signed(mention("another workspace, before").replace("T0001", "T0002")));
    const abort = new AbortController();
    const { state, readUntil } = sseReader(eventFeedStream(getEventFeed(), abort.signal, visibleToTeams(new Set(["T0001"]))));
    await readUntil("event: snapshot");
    await readUntil("before");
    expect(getEventFeed().subscriberCount).toBe(1);

    await POST(signed(mention("another workspace, live").replace("T0001", "T0002")));
    await POST(signed(mention("live one")));
    await readUntil("live one");
    expect(state.text).not.toContain("another workspace");

    abort.abort();
    expect(getEventFeed().subscriberCount).toBe(0);
  });
});

describe("GET /api/events/stream", () => {
  it("is a server-sent event stream that shows a browser without an installation no workspace's events", async () => {
    await POST(signed(mention("kept from before")));
    const abort = new AbortController();
    const response = await STREAM(new Request("http://localhost:3000/api/events/stream", { signal: abort.signal }));
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { state, readUntil } = sseReader(response.body!);
    await readUntil("event: snapshot");
    await readUntil("\n\n");

    await POST(signed(mention("live, but not this viewer's")));
    // A url_verification envelope carries no workspace: it reaches every viewer, and arrives after the mention.
    await POST(signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "marker-challenge" })));
    await readUntil("marker-challenge");
    expect(state.text).not.toContain("kept from before");
    abort.abort();
  });

  it("shows nobody a signed envelope that names no workspace, unless it is a url_verification", async () => {
    await POST(signed(JSON.stringify({ type: "event_callback", event: { type: "app_mention", text: "no team here" } })));
    const abort = new AbortController();
    const { state, readUntil } = sseReader(eventFeedStream(getEventFeed(), abort.signal, visibleToTeams(new Set(["T0001"]))));
    await POST(signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "second-marker" })));
    await readUntil("second-marker");
    expect(state.text).not.toContain("no team here");
    expect(state.text).not.toContain("not this viewer's");
    abort.abort();
  });
});

describe("an event nested too deep", () => {
  const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("is refused with 400 json_too_deep, even signed, and the stream's snapshot still opens for everyone", async () => {
    await POST(signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "before-the-deep-one" })));
    const response = await POST(signed(`{"type":"url_verification","token":"x","challenge":"c","x":${deep(5_000)}}`));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, error: "json_too_deep" });
    expect(getEventFeed().recent()).toHaveLength(1);

    const abort = new AbortController();
    const stream = await STREAM(new Request("http://localhost:3000/api/events/stream", { signal: abort.signal }));
    expect(stream.status).toBe(200);
    const { readUntil } = sseReader(stream.body!);
    await readUntil("before-the-deep-one");
    abort.abort();
  });

  it("that reaches the feed another way (another instance's relay) is kept without its payload, and never breaks the snapshot", async () => {
    const feed = getEventFeed();
    let payload: unknown = "bottom";
    for (let i = 0; i < 5_000; i++) payload = [payload];
    feed.publish({
      id: "relayed-deep",
      receivedAt: Date.now(),
      envelopeType: "url_verification",
      eventType: null,
      eventId: null,
      teamId: null,
      retryNum: null,
      retryReason: null,
      bytes: 10_000,
      payload: { type: "url_verification", x: payload },
    });
    await POST(signed(JSON.stringify({ type: "url_verification", token: "x", challenge: "after-the-deep-one" })));

    const abort = new AbortController();
    const stream = await STREAM(new Request("http://localhost:3000/api/events/stream", { signal: abort.signal }));
    expect(stream.status).toBe(200);
    const { state, readUntil } = sseReader(stream.body!);
    await readUntil("]\n\n");
    const snapshot = JSON.parse(/event: snapshot\ndata: (.*)\n\n/.exec(state.text)![1]!) as ReceivedEvent[];
    expect(snapshot.map((e) => e.id)).toEqual([expect.any(String), "relayed-deep"]);
    expect(snapshot[1]!.payload).toEqual({ omitted: expect.stringContaining("deeper than 64 levels") });
    abort.abort();
  });

  it("or one that cannot be written out at all is sent without its payload instead of ending the stream", () => {
    const event: ReceivedEvent = {
      id: "unwritable",
      receivedAt: 0,
      envelopeType: "event_callback",
      eventType: null,
      eventId: null,
      teamId: "T0001",
      retryNum: null,
      retryReason: null,
      bytes: 1,
      payload: { big: 1n },
    };
    expect(JSON.parse(new TextDecoder().decode(encodeEvent(event)))).toMatchObject({ id: "unwritable", payload: { omitted: expect.any(String) } });
  });
});

describe("which app an event is for", () => {
  it("is the envelope's api_app_id, else the app whose signing secret signed it: a url_verification names none", async () => {
    await POST(signed(mention("named")));
    expect(getEventFeed().recent()[0]?.appId).toBe("A0001");

    const challenge = JSON.stringify({ type: "url_verification", token: "x", challenge: "whose" });
    const rotation = defaultAppCredentials(getConfig().emulator.seed, "rotation");
    const legacy = defaultAppCredentials(getConfig().emulator.seed, "legacy");
    await POST(signed(challenge, {}, rotation.signingSecret));
    await POST(signed(challenge, {}, legacy.signingSecret));
    expect(
      getEventFeed()
        .recent()
        .slice(0, 2)
        .map((e) => e.appId),
    ).toEqual([legacy.appId, rotation.appId]);
  });
});
