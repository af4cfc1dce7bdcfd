// GET /api/events/stream - Server-sent events: the received events kept in this process, then each new one
import { getEventFeed } from "@/lib/events/feed";
import { eventFeedStream } from "@/lib/events/stream";

export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  return new Response(eventFeedStream(getEventFeed(), request.signal), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      // Tells buffering reverse proxies (nginx) to pass each event through at once.
      "x-accel-buffering": "no",
    },
  });
}
