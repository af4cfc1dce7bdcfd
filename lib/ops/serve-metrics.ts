import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/lib/config";
import { getStreamLimits } from "@/lib/events/viewers";
import { AppError } from "@/lib/http/app-error";
import { toErrorResponse } from "@/lib/http/error-response";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { getStore } from "@/lib/store";
import { metrics } from "@/lib/metrics";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the request carries the metrics token, compared in constant time. */
function carriesToken(request: Request, token: string): boolean {
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** The values read at scrape time: the nearest token expiry and the installations needing reinstall (from the store), the open event streams. */
async function updateScrapeGauges(): Promise<void> {
  const m = metrics();
  m.eventStreams.set(getStreamLimits().openStreams);
  if (!getConfig().refresher.enabled) m.refresherLastSuccess.set(Number.NaN);
  try {
    const store = await getStore();
    const nearest = await store.installations.nearestTokenExpiry();
    m.nearestExpiry.set(nearest === null ? Number.NaN : (nearest - getRotationRuntime().now()) / 1000);
    // The kept count (lib/store/installation-lists.ts): one row read, however many installations there are.
    const { counts } = await store.installations.page({ scope: { kind: "everyone" }, q: "", filter: "needs_reinstall", limit: 1, expiringBy: 0 });
    m.needingReinstall.set(counts.needs_reinstall);
  } catch {
    // The store is down: counted by switchboard_store_errors_total; the scrape itself still answers.
    m.nearestExpiry.set(Number.NaN);
    m.needingReinstall.set(Number.NaN);
  }
}

/**
 * GET /api/metrics: the instance's metrics in Prometheus's text format, to a scraper that sends
 * METRICS_TOKEN as a bearer token (401 otherwise, 404 while METRICS_TOKEN is unset). A token rather than
 * a private listener: every instance serves one port behind the load balancer, and Prometheus scrapes each
 * instance at its own address with the `authorization` setting.
 */
export async function serveMetrics(request: Request): Promise<Response> {
  const token = getConfig().ops.metricsToken;
  try {
    if (token === null) throw new AppError("metrics_disabled");
    if (!carriesToken(request, token)) throw new AppError("metrics_token_required", { headers: { "WWW-Authenticate": 'Bearer realm="switchboard-metrics"' } });
    await updateScrapeGauges();
    const { registry } = metrics();
    return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
  } catch (error) {
    return toErrorResponse(error);
  }
}
