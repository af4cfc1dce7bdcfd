// GET /api/ready - Readiness: 200 when the store and Redis (with REDIS_URL) answer and the instance is not shutting down, else 503
import { readiness } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

// No handleRoute, like /api/health: a load balancer asks each instance at its own address.
export async function GET() {
  const state = await readiness();
  return Response.json(state, { status: state.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
}
