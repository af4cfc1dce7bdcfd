import { valueNestsDeeperThan } from "@/lib/http/json-body";
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
  /**
   * The app the request was for: the envelope's api_app_id, else the app whose signing secret signed it (a
   * url_verification names no app). Null when neither tells; absent from events an older instance relayed.
   */
  appId?: string | null;
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
  /** A sink with a connection of its own (the Redis relay) answers whether it is reachable: readiness asks. */
  ping?(): Promise<void>;
  /** And closes it (graceful shutdown). */
  close?(): Promise<void>;
}

/** How many events the feed keeps: enough to inspect, bounded so memory is too. */
export const EVENT_FEED_CAPACITY = 200;
/** And how many bytes of request bodies: 200 events at the 1 MB body limit would hold 200 MB. */
export const EVENT_FEED_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How deep an event's payload may nest to be kept as it came: the platform's envelopes need about 15 levels,
 * and a payload much deeper would break whatever writes it out or shows it (JSON.stringify, the page's tree).
 */
export const MAX_EVENT_PAYLOAD_DEPTH = 64;

/** The event as kept and shown: a payload that cannot be written out or shown is replaced by a note saying so. */
function keepable(event: ReceivedEvent): ReceivedEvent {
  if (!valueNestsDeeperThan(event.payload, MAX_EVENT_PAYLOAD_DEPTH)) return event;
  return { ...event, payload: { omitted: `The payload nests deeper than ${MAX_EVENT_PAYLOAD_DEPTH} levels, so it is not shown.` } };
}

const encoder = new TextEncoder();
/** How a live viewer is sent one event: a server-sent `received` message, its data the event's JSON. */
const RECEIVED_START = "event: received\ndata: ";
const RECEIVED_START_BYTES = encoder.encode(RECEIVED_START).byteLength;
const encodedEvents = new WeakMap<ReceivedEvent, { message: Uint8Array; json: Uint8Array }>();

/**
 * An event encoded once for every stream and every snapshot: its `received` message, and its JSON as a view
 * of the same bytes. Viewers are handed these bytes, never copies of a large event (small ones that wait
 * together are joined into one write), so a thousand viewers of a 1 MB event hold that megabyte once; and a live viewer gets an event in one write, not three. (JSON.stringify escapes line
 * breaks, so the text fits on one `data:` line.) It never throws: an event that cannot be written out at all
 * is sent without its payload, so that no one event can break the feed of every viewer.
 */
function encoded(event: ReceivedEvent): { message: Uint8Array; json: Uint8Array } {
  let bytes = encodedEvents.get(event);
  if (bytes === undefined) {
    let text: string;
    try {
      text = JSON.stringify(event);
    } catch {
      text = JSON.stringify({ ...event, payload: { omitted: "The payload could not be written out, so it is not shown." } });
    }
    const message = encoder.encode(`${RECEIVED_START}${text}\n\n`);
    bytes = { message, json: message.subarray(RECEIVED_START_BYTES, message.byteLength - 2) };
    encodedEvents.set(event, bytes);
  }
  return bytes;
}

/** The event's JSON (a snapshot's member), shared by every viewer. */
export function encodeEvent(event: ReceivedEvent): Uint8Array {
  return encoded(event).json;
}

/** The event as a live viewer is sent it: `event: received`, its JSON, the blank line; shared by every viewer. */
export function receivedMessage(event: ReceivedEvent): Uint8Array {
  return encoded(event).message;
}

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

  publish(received: ReceivedEvent): void {
    // Whatever it came from (this instance's request URL or another's relay), what is kept can be shown.
    const event = keepable(received);
    encodeEvent(event);
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
