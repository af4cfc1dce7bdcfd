/**
 * Several console instances behind a load balancer: the platform POSTs an event to one of them while the
 * viewer's /events stream is held by another. With REDIS_URL set, each instance relays what it receives
 * to the others over a real Redis (Debian's redis-server, started by the test).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/events/route";
import { GET as STREAM } from "@/app/api/events/stream/route";
import { getConfig } from "@/lib/config";
import { EventFeed, getEventFeed, type ReceivedEvent } from "@/lib/events/feed";
import { receiveEventRequest } from "@/lib/events/receive";
import { RedisEventRelay } from "@/lib/events/redis-relay";
import { signRequest } from "@/lib/events/signature";
import { getEventSink } from "@/lib/events/sink";
import { sealValue } from "@/lib/http/sealed-cookie";
import { freePort, startRedis, type TestRedis } from "../support/redis";

const CHANNEL = "switchboard:events";
let redis: TestRedis;
let inspector: Redis;
const opened: RedisEventRelay[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // Read by getConfig() at its first call: this test process is an instance configured with Redis.
  Object.assign(process.env, { REDIS_URL: redis.url, LOG_LEVEL: "silent", SESSION_PASSWORD: randomBytes(32).toString("base64url") });
  inspector = new Redis(redis.url);
  await thisInstance().subscribed;
});
afterAll(async () => {
  await Promise.all(opened.map((relay) => relay.close()));
  await thisInstance().close();
  inspector?.disconnect();
  await redis?.stop();
});

/** The relay this process's routes use (REDIS_URL is set, so it is one). */
function thisInstance(): RedisEventRelay {
  const sink = getEventSink();
  if (!(sink instanceof RedisEventRelay)) throw new Error("with REDIS_URL set, the event sink must be the Redis relay");
  return sink;
}

/** One more server instance: its own feed, its own connections to the shared Redis. */
async function otherInstance(url = redis.url): Promise<{ relay: RedisEventRelay; feed: EventFeed }> {
  const feed = new EventFeed();
  const relay = new RedisEventRelay({ url, feed, passwords: getConfig().sessionPasswords, commandTimeoutMs: 500 });
  opened.push(relay);
  if (url === redis.url) await relay.subscribed;
  return { relay, feed };
}

/** Resolves with the first event published on `feed` that matches, or fails after 5 s. */
function nextEvent(feed: EventFeed, matches: (event: ReceivedEvent) => boolean): Promise<ReceivedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("no matching event within 5 s"));
    }, 5000);
    const unsubscribe = feed.subscribe((event) => {
      if (!matches(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

const textOf = (event: ReceivedEvent) => (event.payload as { event?: { text?: string } }).event?.text;
const withText = (text: string) => (event: ReceivedEvent) => textOf(event) === text;

function signedMention(text: string): Request {
  const body = JSON.stringify({
    type: "event_callback",
    team_id: "T0001",
    api_app_id: "A0001",
    event_id: `Ev${randomBytes(4).toString("hex")}`,
    event: { type: "app_mention", user: "U0001", text, channel: "C0001", ts: "1700000000.000100" },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  return new Request("http://localhost:3000/api/events", {
    method: "POST",
    headers: { "content-type": "application/json", "x-slack-request-timestamp": ts, "x-slack-signature": signRequest(getConfig().signingSecret, ts, body) },
    body,
  });
}

const received = (text: string, overrides: Partial<ReceivedEvent> = {}): ReceivedEvent => ({
  id: randomBytes(8).toString("hex"),
  receivedAt: Date.now(),
  envelopeType: "event_callback",
  eventType: "app_mention",
  eventId: null,
  teamId: "T0001",
  retryNum: null,
  retryReason: null,
  bytes: 100,
  payload: { event: { type: "app_mention", text } },
  ...overrides,
});

/**
 * Publishes a marker from another instance and waits for it here: the channel delivers in order, so
 * everything published before it has been handled by this instance once it arrives.
 */
async function drained(other: RedisEventRelay): Promise<void> {
  const marker = `marker ${randomBytes(4).toString("hex")}`;
  const arrived = nextEvent(getEventFeed(), withText(marker));
  other.publish(received(marker));
  await arrived;
}

const countWithText = (feed: EventFeed, text: string) => feed.recent().filter(withText(text)).length;

describe("the event relay between instances", () => {
  it("brings an event POSTed to this instance to another instance's feed, once on each", async () => {
    const other = await otherInstance();
    const arriving = nextEvent(other.feed, withText("posted to instance A"));
    const response = await POST(signedMention("posted to instance A"));
    expect(response.status).toBe(200);

    const there = await arriving;
    expect(there).toMatchObject({ envelopeType: "event_callback", eventType: "app_mention", teamId: "T0001" });
    expect(there.payload).not.toHaveProperty("token");
    // This instance hears its own message back on the channel and must not show the event twice.
    await drained(other.relay);
    expect(countWithText(getEventFeed(), "posted to instance A")).toBe(1);
    expect(countWithText(other.feed, "posted to instance A")).toBe(1);
  });

  it("streams an event that reached another instance to this instance's GET /api/events/stream", async () => {
    const other = await otherInstance();
    const abort = new AbortController();
    const response = await STREAM(new Request("http://localhost:3000/api/events/stream", { signal: abort.signal }));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value);
      }
    };
    await readUntil("event: snapshot");

    // A url_verification carries no workspace, so a viewer without installations is shown it.
    other.relay.publish(
      received("", { envelopeType: "url_verification", eventType: null, teamId: null, payload: { type: "url_verification", challenge: "relayed-challenge" } }),
    );
    await readUntil("relayed-challenge");
    expect(text).toContain("event: received");
    abort.abort();
  });

  it("ignores messages that do not unseal with SESSION_PASSWORD: anything else publishing on the channel feeds nobody", async () => {
    const other = await otherInstance();
    const forged = received("forged in clear");
    await inspector.publish(CHANNEL, JSON.stringify({ from: "attacker", event: forged }));
    const otherPassword = { "1": randomBytes(32).toString("base64url") };
    await inspector.publish(CHANNEL, await sealValue({ from: "attacker", event: received("sealed with another password") }, otherPassword, 60));
    await inspector.publish(CHANNEL, "not even a seal");

    await drained(other.relay);
    expect(countWithText(getEventFeed(), "forged in clear")).toBe(0);
    expect(countWithText(getEventFeed(), "sealed with another password")).toBe(0);
  });

  it("shows a replayed relay message once", async () => {
    const other = await otherInstance();
    const listener = new Redis(redis.url);
    const captured = new Promise<string>((resolve) => listener.on("message", (_channel: string, message: string) => resolve(message)));
    await listener.subscribe(CHANNEL);
    const arrived = nextEvent(getEventFeed(), withText("delivered once"));
    other.relay.publish(received("delivered once"));
    await arrived;

    await inspector.publish(CHANNEL, await captured);
    await drained(other.relay);
    expect(countWithText(getEventFeed(), "delivered once")).toBe(1);
    listener.disconnect();
  });

  it("keeps the order in which an instance received its events, a large one first included", async () => {
    const other = await otherInstance();
    const texts = Array.from({ length: 20 }, (_, i) => `in order ${i}`);
    const last = nextEvent(getEventFeed(), withText(texts.at(-1)!));
    // The first takes longest to seal: the small ones after it must still not overtake it.
    const padding = "x".repeat(900 * 1024);
    for (const [i, text] of texts.entries()) {
      other.relay.publish(received(text, i === 0 ? { payload: { event: { type: "app_mention", text }, padding } } : {}));
    }
    await last;
    const seen = getEventFeed()
      .recent()
      .map(textOf)
      .filter((t) => t?.startsWith("in order "))
      .reverse();
    expect(seen).toEqual(texts);
  });

  it("still acknowledges the platform and shows the event here when Redis cannot be reached", async () => {
    const down = await otherInstance(`redis://127.0.0.1:${await freePort()}`);
    const started = Date.now();
    const response = await receiveEventRequest(signedMention("Redis is down"), { signers: getConfig().eventSigners, sink: down.relay });
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(countWithText(down.feed, "Redis is down")).toBe(1);
  });
});
