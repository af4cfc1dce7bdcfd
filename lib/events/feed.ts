import { processSingleton } from "@/lib/process-singleton";

/** One request that reached the Events API request URL, as the console shows it. */
export interface ReceivedEvent {
  /** Unique per received request (a retry of the same event is a new entry). */
  id: string;
  receivedAt: number;
  /** The envelope's type: event_callback, url_verification, app_rate_limited, … */
  envelopeType: string;
  /** The inner event's type for event_callback (app_mention, …). */
  eventType: string | null;
  eventId: string | null;
  teamId: string | null;
  /** X-Slack-Retry-Num and X-Slack-Retry-Reason, when the platform is retrying a delivery. */
  retryNum: number | null;
  retryReason: string | null;
  /** Size of the request body as received. */
  bytes: number;
  payload: unknown;
}

export type EventListener = (event: ReceivedEvent) => void;

/** Where POST /api/events puts what it verified: a feed, or a relay that also feeds the other instances. */
export interface EventSink {
  publish(event: ReceivedEvent): void;
}

/** How many events the feed keeps: enough to inspect, bounded so memory is too. */
export const EVENT_FEED_CAPACITY = 200;
/** And how many bytes of request bodies: 200 events at the 1 MB body limit would hold 200 MB. */
export const EVENT_FEED_MAX_BYTES = 8 * 1024 * 1024;

/**
 * An in-process feed of received events: a bounded ring of the latest ones and the live subscribers
 * (server-sent event streams). With several server instances, each has its own, and the Redis relay
 * (redis-relay.ts) puts every instance's received events into all of them.
 */
export class EventFeed implements EventSink {
  private readonly events: ReceivedEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private bytes = 0;

  constructor(
    private readonly capacity: number = EVENT_FEED_CAPACITY,
    private readonly maxBytes: number = EVENT_FEED_MAX_BYTES,
  ) {}

  publish(event: ReceivedEvent): void {
    this.events.push(event);
    this.bytes += event.bytes;
    // The oldest go first; the newest event always stays.
    while (this.events.length > 1 && (this.events.length > this.capacity || this.bytes > this.maxBytes)) {
      this.bytes -= this.events.shift()?.bytes ?? 0;
    }
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not stop delivery to the others; the stream removes itself on close.
      }
    }
  }

  /** The kept events, newest first. */
  recent(): ReceivedEvent[] {
    return [...this.events].reverse();
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  clear(): void {
    this.events.length = 0;
    this.bytes = 0;
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }
}

/** The process's feed, on globalThis so that every route bundle (and dev reloads) share it. */
export function getEventFeed(): EventFeed {
  return processSingleton("eventFeed", () => new EventFeed());
}
