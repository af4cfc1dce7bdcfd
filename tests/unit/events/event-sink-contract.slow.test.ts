import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventFeed, type EventSink, type ReceivedEvent } from "@/lib/events/feed";
import { RedisEventRelay } from "@/lib/events/redis-relay";
import { startRedis, type TestRedis } from "../support/redis";

/**
 * What every EventSink promises, run against each implementation, as the refresh coordinator's contract
 * suite does. `instances(n)` gives n server instances, each a sink and the feed its /events viewers read:
 * in one process without REDIS_URL, the feed is its own sink and there is one; with Redis, each instance
 * has its own feed and relay, and they share one Redis.
 */
interface Instance {
  sink: EventSink;
  feed: EventFeed;
}

interface Implementation {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  instances(n: number): Promise<Instance[]>;
}

let redis: TestRedis;
const relays: RedisEventRelay[] = [];
const PASSWORDS = { "1": randomBytes(32).toString("base64url") };

const implementations: Implementation[] = [
  {
    name: "EventFeed (one process)",
    async setup() {},
    async teardown() {},
    async instances(n) {
      const feed = new EventFeed();
      return Array.from({ length: n }, () => ({ sink: feed, feed }));
    },
  },
  {
    name: "RedisEventRelay",
    async setup() {
      redis = await startRedis();
    },
    async teardown() {
      await Promise.all(relays.map((relay) => relay.close()));
      await redis?.stop();
    },
    async instances(n) {
      // A channel per call keeps the tests apart in one Redis.
      const channel = `contract:${randomBytes(6).toString("hex")}`;
      const made = Array.from({ length: n }, () => {
        const feed = new EventFeed();
        const relay = new RedisEventRelay({ url: redis.url, feed, passwords: PASSWORDS, commandTimeoutMs: 1_000, channel });
        relays.push(relay);
        return { sink: relay, feed };
      });
      await Promise.all(made.map((instance) => (instance.sink as RedisEventRelay).subscribed));
      return made;
    },
  },
];

const received = (text: string, bytes = 100): ReceivedEvent => ({
  id: randomBytes(8).toString("hex"),
  receivedAt: Date.now(),
  envelopeType: "event_callback",
  eventType: "app_mention",
  eventId: null,
  teamId: "T0001",
  retryNum: null,
  retryReason: null,
  bytes,
  payload: { event: { type: "app_mention", text } },
});

const texts = (feed: EventFeed) => feed.recent().map((e) => (e.payload as { event: { text: string } }).event.text);

/** Waits until `feed` holds every one of `wanted` (or fails after 5 s). */
async function holds(feed: EventFeed, wanted: string[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!wanted.every((text) => texts(feed).includes(text))) {
    if (Date.now() > deadline) throw new Error(`the feed never held ${wanted.join(", ")}; it holds ${texts(feed).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(implementations)("$name (event sink contract)", (implementation) => {
  beforeAll(() => implementation.setup());
  afterAll(() => implementation.teardown());

  it("puts an event in its own instance's feed at once, before the platform's POST is answered", async () => {
    const [instance] = await implementation.instances(1);
    instance!.sink.publish(received("at once"));
    expect(texts(instance!.feed)).toEqual(["at once"]);
  });

  it("shows an event received by any instance on every instance, once each", async () => {
    const instances = await implementation.instances(3);
    instances[1]!.sink.publish(received("from the second"));
    for (const { feed } of instances) await holds(feed, ["from the second"]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const { feed } of instances) expect(texts(feed).filter((t) => t === "from the second")).toHaveLength(1);
  });

  it("keeps the order in which one instance received them, a large event first", async () => {
    const [sender, viewer] = await implementation.instances(2);
    const big = received("x".repeat(900_000), 900_000);
    sender!.sink.publish(big);
    for (const n of [1, 2, 3]) sender!.sink.publish(received(`small ${n}`));
    await holds(viewer!.feed, ["small 3"]);
    const order = texts(viewer!.feed).reverse();
    expect(order.slice(-4).map((t) => (t.length > 20 ? "big" : t))).toEqual(["big", "small 1", "small 2", "small 3"]);
    expect(viewer!.feed.recent().find((e) => e.id === big.id)?.bytes).toBe(900_000);
  });
});
