// GET /api/health - Liveness: answers once the server (and its configuration) is up
import { getConfig } from "@/lib/config";

export const dynamic = "force-dynamic";

export function GET() {
  const config = getConfig();
  return Response.json({ ok: true, upstream: config.upstream.kind });
}
