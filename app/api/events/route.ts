// POST /api/events - The Events API request URL: verify the signature, answer url_verification, feed /events
import { getConfig } from "@/lib/config";
import { receiveEventRequest } from "@/lib/events/receive";
import { getEventSink } from "@/lib/events/sink";

export const dynamic = "force-dynamic";

// Called by the platform, not a browser: authenticated by its signature, so no Origin check applies.
export function POST(request: Request): Promise<Response> {
  return receiveEventRequest(request, { signers: getConfig().eventSigners, sink: getEventSink() });
}
