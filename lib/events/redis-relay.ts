import "server-only";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { z } from "zod";
import { logger } from "@/lib/log";
import { metrics } from "@/lib/metrics";
import { sealValue, unsealValue, type PasswordMap } from "@/lib/http/sealed-cookie";
import type { EventFeed, EventSink, ReceivedEvent } from "./feed";

/** A relayed event is delivered in milliseconds; a seal older than this is a replay, not a delivery. */
const RELAY_SEAL_TTL_S = 60;
/** How many relayed ids are remembered, so a replayed message within the seal's lifetime shows once. */
const SEEN_IDS = 1000;
/** Events waiting to be relayed while Redis is slow or away; past this, new ones stay on this instance. */
const MAX_PENDING = 1000;

export interface RedisEventRelayOptions {
  /** redis://[user:password@]host:port[/db], or rediss:// for TLS: the same one as refresh coordination. */
  url: string;
  /** This instance's feed: what its /events viewers are streamed. */
  feed: EventFeed;
  /** The session password map: messages are sealed, so only instances that share it can feed each other. */
  passwords: PasswordMap;
  /** Separates deployments (or tests) that share one Redis. */
  channel?: string;
  /** Gives up on an unreachable Redis after this long, per command. */
  commandTimeoutMs?: number;
}

const Relayed = z.object({
  from: z.string(),
  event: z.object({
    id: z.string(),
    receivedAt: z.number(),
    envelopeType: z.string(),
    eventType: z.string().nullable(),
    eventId: z.string().nullable(),
    teamId: z.string().nullable(),
    // An instance of an older version relays events without it.
    appId: z.string().nullable().default(null),
    retryNum: z.number().nullable(),
    retryReason: z.string().nullable(),
    bytes: z.number(),
    payload: z.unknown(),
  }),
});

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Shares the Events API requests received by one server instance with every other instance behind the
 * load balancer. The platform POSTs an event to whichever instance the balancer picks, while the viewer's
 * /events stream is held open by another one: each received event goes into this instance's feed at once,
 * and out on a Redis pub/sub channel, from which every other instance puts it into its own feed.
 *
 * Messages are sealed with SESSION_PASSWORD, like the cookies and kept refresh results: event payloads are
 * workspace data (message text, user ids), and a message that does not unseal (published by anything
 * that lacks the password) never reaches a feed. When Redis cannot be reached, events still reach this
 * instance's viewers, and the POST is still acknowledged: relaying never delays or fails the answer the
 * platform waits for.
 */
export class RedisEventRelay implements EventSink {
  /** Distinguishes this instance's own messages, which the channel delivers back to it. */
  readonly instanceId = randomUUID();
  /** Settles when this instance is subscribed and will receive other instances' events. */
  readonly subscribed: Promise<void>;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly channel: string;
  private readonly seen = new Set<string>();
  /** Sealing is asynchronous: events are sealed and published one after another, in the order received. */
  private forwarding: Promise<void> = Promise.resolve();
  /** Messages are unsealed one after another, so the feed keeps the channel's order. */
  private delivery: Promise<void> = Promise.resolve();
  private pending = 0;
  private reportedDown = false;

  constructor(private readonly options: RedisEventRelayOptions) {
    this.channel = options.channel ?? "switchboard:events";
    const commandTimeout = options.commandTimeoutMs ?? 2000;
    this.publisher = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      connectTimeout: commandTimeout,
      commandTimeout,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    // A subscribed connection can do nothing else; ioredis subscribes it again after a reconnection.
    this.subscriber = new Redis(options.url, {
      maxRetriesPerRequest: null,
      connectTimeout: commandTimeout,
      retryStrategy: (times) => Math.min(times * 100, 2000),
    });
    for (const [name, connection] of [
      ["publisher", this.publisher],
      ["subscriber", this.subscriber],
    ] as const) {
      connection.on("error", (error: Error) => {
        metrics().redisErrors.inc({ source: name });
        this.reportDown(error.message);
      });
      connection.on("ready", () => {
        if (this.reportedDown) logger.info("event relay: Redis reachable again");
        this.reportedDown = false;
      });
    }
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel !== this.channel) return;
      this.delivery = this.delivery.then(() => this.deliver(message));
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(
      () => undefined,
      (error: unknown) => this.reportDown(messageOf(error)),
    );
  }

  /** Shows the event to this instance's viewers now, and relays it to the other instances. */
  publish(event: ReceivedEvent): void {
    this.remember(event.id);
    this.options.feed.publish(event);
    if (this.pending >= MAX_PENDING) {
      this.reportDown(`${MAX_PENDING} events are waiting to be relayed`);
      return;
    }
    this.pending += 1;
    this.forwarding = this.forwarding
      .then(() => this.forward(event))
      .finally(() => {
        this.pending -= 1;
      });
  }

  /** Closes both connections (tests, and servers shutting down). */
  async close(): Promise<void> {
    // QUIT waits for a connection; one that is not up (Redis unreachable) is simply dropped.
    await Promise.all(
      [this.subscriber, this.publisher].map((c) =>
        c.status === "ready"
          ? c.quit().then(
              () => undefined,
              () => c.disconnect(),
            )
          : c.disconnect(),
      ),
    );
  }

  private async forward(event: ReceivedEvent): Promise<void> {
    try {
      const seal = await sealValue({ from: this.instanceId, event }, this.options.passwords, RELAY_SEAL_TTL_S);
      await this.publisher.publish(this.channel, seal);
    } catch (error) {
      metrics().redisErrors.inc({ source: "publish" });
      this.reportDown(messageOf(error));
    }
  }

  /** Asks Redis for a PONG on the publishing connection (readiness): resolves, or rejects within the command timeout. */
  async ping(): Promise<void> {
    await this.publisher.ping();
  }

  private async deliver(message: string): Promise<void> {
    const unsealed = await unsealValue<unknown>(message, this.options.passwords, RELAY_SEAL_TTL_S);
    const relayed = Relayed.safeParse(unsealed);
    if (!relayed.success) {
      logger.warn("event relay: a message on the channel does not unseal (another deployment, or instances without the same SESSION_PASSWORD?); ignored");
      return;
    }
    const { from, event } = relayed.data;
    if (from === this.instanceId || this.seen.has(event.id)) return;
    this.remember(event.id);
    this.options.feed.publish(event);
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_IDS) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  private reportDown(why: string): void {
    if (this.reportedDown) return;
    this.reportedDown = true;
    logger.warn({ error: why }, "event relay: Redis unreachable; events reach only the instance that received them");
  }
}
