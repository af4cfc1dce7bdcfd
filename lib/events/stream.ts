import type { EventFeed, ReceivedEvent } from "./feed";

/** A comment line every so often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

/**
 * Which events a viewer may see: those of the workspaces their session has installed into. Event payloads
 * are workspace data (message text, user ids), and a hosted console serves many people. An envelope with
 * no team (url_verification) carries nothing of a workspace.
 */
export function visibleToTeams(teamIds: ReadonlySet<string>): (event: ReceivedEvent) => boolean {
  return (event) => event.teamId === null || teamIds.has(event.teamId);
}

/**
 * A server-sent-events stream of the feed: first a `snapshot` of the kept events the viewer may see
 * (newest first), then one `received` message per new one, until the client goes away.
 */
export function eventFeedStream(
  feed: EventFeed,
  signal: AbortSignal,
  isVisible: (event: ReceivedEvent) => boolean,
  heartbeatMs: number = HEARTBEAT_MS,
): ReadableStream<Uint8Array> {
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
      message("snapshot", feed.recent().filter(isVisible));
      const unsubscribe = feed.subscribe((event: ReceivedEvent) => {
        if (isVisible(event)) message("received", event);
      });
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
