// GET /api/events/stream - Server-sent events: the received events of this session's workspaces, then each new one
import { getEventFeed } from "@/lib/events/feed";
import { getEventSink } from "@/lib/events/sink";
import { eventFeedStream, visibleToTeams } from "@/lib/events/stream";
import { handleRoute } from "@/lib/http";
import { getSessionInstallationViews } from "@/lib/session";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async (request) => {
    // With Redis, this instance must be subscribed to hear what the others receive (normally done at start).
    getEventSink();
    const teams = new Set((await getSessionInstallationViews()).map((installation) => installation.team.id));
    return new Response(eventFeedStream(getEventFeed(), request.signal, visibleToTeams(teams)), {
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-store, no-transform",
        connection: "keep-alive",
        // Tells buffering reverse proxies (nginx) to pass each event through at once.
        "x-accel-buffering": "no",
      },
    });
  },
  // A read only: another site cannot read the stream (same-origin policy), and it changes nothing.
);
