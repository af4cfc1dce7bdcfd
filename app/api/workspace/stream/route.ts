// GET /api/workspace/stream?user=&team= - Server-sent events: the member's workspace changes, live (admins; emulator upstreams only)
import { handleRoute } from "@/lib/access/handle-route";
import { parseQuery } from "@/lib/http";
import { relayWorkspaceStream, StreamQuery } from "@/lib/workspace-page/relay";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  (request, _context, viewer) => relayWorkspaceStream(request, viewer, parseQuery(request, StreamQuery)),
  // As GET /api/events/stream: EventSource sends no header of the console's own, another site cannot read the stream, and it changes nothing.
);
