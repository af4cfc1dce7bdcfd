import type { EventFeed, ReceivedEvent } from "./feed";

/** A comment line every so often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

/**
 * A server-sent-events stream of the feed: first a `snapshot` of the kept events (newest first), then one
 * `received` message per new event, until the client goes away.
 */
export function eventFeedStream(feed: EventFeed, signal: AbortSignal, heartbeatMs: number = HEARTBEAT_MS): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stop = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const message = (name: string, data: unknown) => send(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
      send("retry: 2000\n\n");
      message("snapshot", feed.recent());
      const unsubscribe = feed.subscribe((event: ReceivedEvent) => message("received", event));
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), heartbeatMs);
      stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        stop();
        try {
          controller.close();
        } catch {
          // Already closed by the runtime.
        }
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort);
    },
    cancel() {
      stop();
    },
  });
}
