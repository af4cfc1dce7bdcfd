import type { EventFeed, ReceivedEvent } from "./feed";

/** A comment line every so often keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

/**
 * Which events a viewer may see: those of the workspaces their session has installed into. Event payloads
 * are workspace data (message text, user ids), and a hosted console serves many people. A url_verification
 * carries nothing of a workspace, so every viewer sees it; any other envelope without a team, nobody.
 */
export function visibleToTeams(teamIds: ReadonlySet<string>): (event: ReceivedEvent) => boolean {
  return (event) => (event.teamId === null ? event.envelopeType === "url_verification" : teamIds.has(event.teamId));
}

// Every open stream sends the same text for an event: it is serialized once, however many viewers there are.
const serialized = new WeakMap<ReceivedEvent, string>();
function eventJson(event: ReceivedEvent): string {
  let json = serialized.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    serialized.set(event, json);
  }
  return json;
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
      const message = (name: string, json: string) => send(`event: ${name}\ndata: ${json}\n\n`);
      send("retry: 2000\n\n");
      message("snapshot", `[${feed.recent().filter(isVisible).map(eventJson).join(",")}]`);
      const unsubscribe = feed.subscribe((event: ReceivedEvent) => {
        if (isVisible(event)) message("received", eventJson(event));
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
