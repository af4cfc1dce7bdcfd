import { processSingleton } from "@/lib/process-singleton";
import { encodeEvent, receivedMessage, type EventFeed, type ReceivedEvent } from "./feed";

/** A comment line every so often keeps proxies from closing an idle stream, and shows a dead one. */
export const HEARTBEAT_MS = 15_000;
/**
 * How far a viewer may fall behind, in bytes handed to it but not yet taken by its connection: more than
 * a full snapshot (the feed keeps at most 8 MB) and a few large events after it.
 */
export const MAX_VIEWER_LAG_BYTES = 12 * 1024 * 1024;
/** How long a viewer may leave what it was sent untaken before it counts as gone. */
export const MAX_VIEWER_STALL_MS = 45_000;
/**
 * Small chunks waiting for one viewer together go to its connection as one write, copied into one chunk of
 * at most this many bytes; a larger chunk goes as it is, shared. Every write to a socket costs the same
 * whatever its size, and 200 viewers of every workspace's events made writes a tenth of a soak's time.
 */
export const COALESCE_BYTES = 32 * 1024;

/**
 * Which events a viewer may see: those of the workspaces their session has installed into. Event payloads
 * are workspace data (message text, user ids), and a hosted console serves many people. A url_verification
 * carries nothing of a workspace, so every viewer sees it; any other envelope without a team, nobody.
 */
export function visibleToTeams(teamIds: ReadonlySet<string>): (event: ReceivedEvent) => boolean {
  return (event) => (event.teamId === null ? event.envelopeType === "url_verification" : teamIds.has(event.teamId));
}

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);
const RETRY = bytes("retry: 2000\n\n");
const SNAPSHOT_START = bytes("event: snapshot\ndata: [");
const SNAPSHOT_SEPARATOR = bytes(",");
const SNAPSHOT_END = bytes("]\n\n");
const HEARTBEAT = bytes(": keep-alive\n\n");

/**
 * Viewers woken for new data take turns: a few per turn of the event loop, so handing a large event to
 * hundreds of connections (each write a copy into the kernel) never holds up other requests for long.
 */
const WAKES_PER_TURN = 4;
const waiting = new Set<() => void>();
let draining = false;

function wakeSoon(wake: () => void) {
  waiting.add(wake);
  if (draining) return;
  draining = true;
  setImmediate(drainWakes);
}

function drainWakes() {
  let woken = 0;
  for (const wake of waiting) {
    waiting.delete(wake);
    wake();
    if (++woken === WAKES_PER_TURN) break;
  }
  if (waiting.size > 0) setImmediate(drainWakes);
  else draining = false;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const joined = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.byteLength;
  }
  return joined;
}

export interface EventStreamOptions {
  heartbeatMs?: number;
  maxLagBytes?: number;
  maxStallMs?: number;
  now?: () => number;
  /** Called once when the stream ends, whatever ended it (the client, the server, a drop). */
  onClose?: (reason: "closed" | "lagging" | "stalled") => void;
}

/** Every open stream of this process, by the function that closes it gracefully (closeEventStreams). */
const openStreams = () => processSingleton("openEventStreams", () => new Set<(retryMs: number) => void>());

/**
 * Closes every open stream of this process (graceful shutdown): each is sent what it already had, then a
 * reconnect hint (`retry:` with a delay spread over `retryMs`…2×`retryMs`, so viewers do not all come back
 * in the same instant), and ends normally. EventSource then reconnects by itself, through the load
 * balancer, to an instance that is still up. Resolves when every one has ended, or after `waitMs`.
 */
export async function closeEventStreams(retryMs: number, waitMs: number): Promise<number> {
  const closers = [...openStreams()];
  for (const close of closers) close(Math.round(retryMs * (1 + Math.random())));
  const deadline = Date.now() + waitMs;
  while (openStreams().size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return closers.length;
}

/** Ends a viewer's connection at once: what was queued for it is dropped, and the socket is closed. */
class ViewerDropped extends Error {
  // Next.js treats an AbortError from a response body as the client going away: no error log per drop.
  override name = "AbortError";
}

/**
 * A server-sent-events stream of the feed: first a `snapshot` of the kept events the viewer may see
 * (newest first), then one `received` message per new one, until the client goes away.
 *
 * Memory stays bounded whatever the viewer does. The stream hands chunks to its connection only as the
 * connection takes them (a pull source over a queue of its own), every chunk of event data is shared
 * with the feed and the other viewers (only small chunks that waited together are copied into one write, at
 * most COALESCE_BYTES per viewer at a time), and a viewer that falls more than `maxLagBytes` behind, or takes
 * nothing it was sent for `maxStallMs`, is dropped: its queue goes and its connection closes. Its
 * browser reconnects (EventSource does) and starts again from a fresh snapshot.
 */
export function eventFeedStream(
  feed: EventFeed,
  signal: AbortSignal,
  isVisible: (event: ReceivedEvent) => boolean,
  options: EventStreamOptions = {},
): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const maxLagBytes = options.maxLagBytes ?? MAX_VIEWER_LAG_BYTES;
  const maxStallMs = options.maxStallMs ?? MAX_VIEWER_STALL_MS;
  const now = options.now ?? Date.now;

  const queue: Uint8Array[] = [];
  /** Bytes of live events in the queue; the snapshot's chunks, first in the queue, are not counted. */
  let queuedBytes = 0;
  let snapshotChunks = 0;
  let lastTakenAt = now();
  let wake: (() => void) | undefined;
  let ended = false;
  /** Set by closeEventStreams: once the queue is taken, the stream ends (normally, so the viewer reconnects). */
  let closing = false;
  let stream!: ReadableStreamDefaultController<Uint8Array>;
  let unsubscribe = () => {};
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const end = (reason: "closed" | "lagging" | "stalled") => {
    if (ended) return;
    ended = true;
    openStreams().delete(closeGracefully);
    clearInterval(heartbeat);
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
    queue.length = 0;
    queuedBytes = 0;
    snapshotChunks = 0;
    if (wake) {
      waiting.delete(wake);
      wake();
    }
    try {
      if (reason === "closed") stream.close();
      else stream.error(new ViewerDropped(`event viewer ${reason}`));
    } catch {
      // Already closed or cancelled.
    }
    options.onClose?.(reason);
  };
  const onAbort = () => end("closed");
  const closeGracefully = (retryMs: number) => {
    if (ended || closing) return;
    // Past its lag bound nothing more is queued: this viewer is ended as a lagging one would be.
    push(bytes(`: the server is shutting down; reconnect\nretry: ${retryMs}\n\n`));
    closing = true;
    if (wake) wakeSoon(wake);
  };

  const push = (...chunks: Uint8Array[]) => {
    if (ended) return;
    if (queue.length === 0) lastTakenAt = now();
    for (const chunk of chunks) {
      queue.push(chunk);
      queuedBytes += chunk.byteLength;
    }
    if (queuedBytes > maxLagBytes) return end("lagging");
    if (wake) wakeSoon(wake);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        stream = controller;
        const snapshot = feed.recent().filter(isVisible);
        const chunks: Uint8Array[] = [RETRY, SNAPSHOT_START];
        snapshot.forEach((event, i) => {
          if (i > 0) chunks.push(SNAPSHOT_SEPARATOR);
          chunks.push(encodeEvent(event));
        });
        chunks.push(SNAPSHOT_END);
        // The snapshot is at most the feed's own bytes, shared: it is not held against the viewer's lag.
        queue.push(...chunks);
        snapshotChunks = chunks.length;
        unsubscribe = feed.subscribe((event) => {
          if (isVisible(event)) push(receivedMessage(event));
        });
        heartbeat = setInterval(() => {
          if (queue.length > 0 && now() - lastTakenAt > maxStallMs) return end("stalled");
          // Only an idle connection needs keeping alive; behind data, a heartbeat would only add to the queue.
          if (queue.length === 0) push(HEARTBEAT);
        }, heartbeatMs);
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener("abort", onAbort);
          openStreams().add(closeGracefully);
        }
      },
      async pull(controller) {
        while (queue.length === 0 && !ended) {
          if (closing) return end("closed");
          await new Promise<void>((resolve) => (wake = resolve));
        }
        wake = undefined;
        // What waits, up to COALESCE_BYTES, goes in one write; a chunk alone (a large event) goes as it is.
        let count = 0;
        let size = 0;
        while (count < queue.length && (count === 0 || size + queue[count]!.byteLength <= COALESCE_BYTES)) size += queue[count++]!.byteLength;
        const taken = queue.splice(0, count);
        if (taken.length === 0) return;
        for (const chunk of taken) {
          if (snapshotChunks > 0) snapshotChunks--;
          else queuedBytes -= chunk.byteLength;
        }
        lastTakenAt = now();
        controller.enqueue(taken.length === 1 ? taken[0]! : concat(taken, size));
      },
      cancel() {
        end("closed");
      },
    },
    // Nothing waits inside the stream itself: a chunk leaves the queue only when the connection asks for one.
    { highWaterMark: 0 },
  );
}
