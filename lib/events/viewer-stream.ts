import "server-only";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { clientAddress } from "@/lib/http/client-address";
import type { Viewer } from "@/lib/viewer";
import { listVisibleSummaries } from "@/lib/installations/visibility";
import { getEventFeed } from "./feed";
import { getEventSink } from "./sink";
import { eventFeedStream, visibleToTeams } from "./stream";
import { readSignedInPerson } from "@/lib/signin/signed-in-cookie";
import { getStreamLimits, personStreamKey, STREAM_RETRY_AFTER_S } from "./viewers";

/**
 * GET /api/events/stream for this request's session: the feed of its workspaces' events, if the session,
 * its client address and the process have room for one more open stream (else 429 with Retry-After).
 */
const REFUSALS = {
  session: "You already have the most live event feeds open that one person may hold: close another /events tab, or wait.",
  address: "Your address already holds the most live event feeds one client may: close another /events tab, or wait.",
  anonymous: "The server holds as many live event feeds for sessions without an installation as it keeps for them: install an app, or wait.",
  process: undefined,
} as const;

export async function openEventStream(request: Request, viewer: Viewer): Promise<Response> {
  // With Redis, this instance must be subscribed to hear what the others receive (normally done at start).
  getEventSink();
  // Names and ids only: no secret is unsealed to open a stream. An uninstalled installation sends no events.
  const installations = (await listVisibleSummaries(viewer)).filter((summary) => summary.state === "active" || summary.tokens.length > 0);
  const address = clientAddress(request.headers, getConfig().trustedProxyHops);
  const admission = getStreamLimits().admit(personStreamKey(await readSignedInPerson()), address, installations.length === 0);
  if (!admission.ok) {
    const message = REFUSALS[admission.full];
    throw new AppError("too_many_streams", { ...(message ? { message } : {}), headers: { "Retry-After": String(STREAM_RETRY_AFTER_S) } });
  }
  const { signal } = request;
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
