// GET /api/metrics - Prometheus metrics of this instance, with METRICS_TOKEN as a bearer token
import { serveMetrics } from "@/lib/ops/serve-metrics";

export const dynamic = "force-dynamic";

// No handleRoute: a scraper reaches each instance at its own address (no Host check), with no cookie or Origin.
export const GET = (request: Request) => serveMetrics(request);
