// GET /api/events/stream - Server-sent events: the received events of this session's workspaces, then each new one
import { openEventStream } from "@/lib/events/viewer-stream";
import { handleRoute } from "@/lib/access/handle-route";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  (request, _context, viewer) => openEventStream(request, viewer),
  // A read only: another site cannot read the stream (same-origin policy), and it changes nothing.
);
