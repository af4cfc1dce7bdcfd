import "server-only";
import { AppError } from "@/lib/http/app-error";
import { getSessionInstallations } from "@/lib/session";
import { getEventFeed } from "./feed";
import { getEventSink } from "./sink";
import { eventFeedStream, visibleToTeams } from "./stream";
import { getStreamLimits, sessionStreamKey, STREAM_RETRY_AFTER_S } from "./viewers";

/**
 * GET /api/events/stream for this request's session: the feed of its workspaces' events, if the session
 * and the process have room for one more open stream (else 429 with Retry-After).
 */
export async function openEventStream(signal: AbortSignal): Promise<Response> {
  // With Redis, this instance must be subscribed to hear what the others receive (normally done at start).
  getEventSink();
  const installations = await getSessionInstallations();
  const admission = getStreamLimits().admit(sessionStreamKey(installations));
  if (!admission.ok) {
    throw new AppError("too_many_streams", {
      ...(admission.full === "session"
        ? { message: "This browser already has the most live event feeds open that a session may hold: close another /events tab, or wait." }
        : {}),
      headers: { "Retry-After": String(STREAM_RETRY_AFTER_S) },
    });
  }
  const teams = new Set(installations.map((installation) => installation.team.id));
  const body = eventFeedStream(getEventFeed(), signal, visibleToTeams(teams), { onClose: admission.release });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform also keeps Next.js from gzipping the stream, which would hold a compressor per viewer.
      "cache-control": "no-store, no-transform",
      connection: "keep-alive",
      // Tells buffering reverse proxies (nginx) to pass each event through at once.
      "x-accel-buffering": "no",
    },
  });
}
