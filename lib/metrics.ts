import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { processSingleton } from "@/lib/process-singleton";

/**
 * The instance's Prometheus metrics (GET /api/metrics). One registry per process, kept in the process
 * singleton: Next.js loads a module once per route bundle, and a registry per bundle would count each
 * route's share apart (and collect the default metrics once per bundle). Labels are closed sets (an outcome,
 * a token kind, an HTTP status), never an id or a method name a client chose.
 */
export interface Metrics {
  registry: Registry;
  /** Token refreshes this instance settled, by token kind and outcome (see RefreshMetricOutcome). */
  refreshes: Counter<"kind" | "outcome">;
  /** Token API requests answered, by HTTP status. */
  tokenApiRequests: Counter<"status">;
  /** Time to answer GET/POST /api/call/{method} (the proxy's whole answer: refresh, upstream call, JSON), by status. */
  callDuration: Histogram<"status">;
  /** Store operations that failed for want of the database (503 store_unavailable), by what failed. */
  storeErrors: Counter<"kind">;
  /** Redis errors of the event relay: a connection's (publisher, subscriber), or an event it could not publish (publish). */
  redisErrors: Counter<"source">;
  /** Seconds until the nearest rotating token of an active installation expires (the platform's time); set at each scrape. */
  nearestExpiry: Gauge;
  /** Event streams (/api/events/stream) open on this instance; set at each scrape. */
  eventStreams: Gauge;
  /** 1 while the instance shuts down (readiness answers 503). */
  shuttingDown: Gauge;
  /** Requests refused, by reason (refusal-metrics.ts): Host, origin, cookies, rate… */
  refusals: Counter<"reason">;
  /** Installations in the store that need a person to install them again; set at each scrape. */
  needingReinstall: Gauge;
  /** When this instance's background refresher last finished a pass (Unix seconds; 0 before its first, NaN when it is off). */
  refresherLastSuccess: Gauge;
  /** Refreshes the background refresher may have under way now (REFRESHER_CONCURRENCY, fewer while the event loop lags). */
  refresherAllowed: Gauge;
}

/**
 * What became of a refresh: `granted` (the platform issued a new pair), `joined` (another request or
 * instance had refreshed it first; no platform call), `refused` (the platform refused the refresh token for
 * good: a reinstall is needed), `failed` (a passing failure: the upstream unreachable, slow or limited).
 */
export type RefreshMetricOutcome = "granted" | "joined" | "refused" | "failed";

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "switchboard_" });
  return {
    registry,
    refreshes: new Counter({
      name: "switchboard_token_refreshes_total",
      help: "Token refreshes settled by this instance, by token kind and outcome (granted, joined, refused, failed).",
      labelNames: ["kind", "outcome"],
      registers: [registry],
    }),
    tokenApiRequests: new Counter({
      name: "switchboard_token_api_requests_total",
      help: "Token API requests (GET /api/v1/installations/{team_id}/token) answered, by HTTP status.",
      labelNames: ["status"],
      registers: [registry],
    }),
    callDuration: new Histogram({
      name: "switchboard_api_call_duration_seconds",
      help: "Time to answer /api/call/{method}: any refresh, the upstream call and the JSON, by HTTP status.",
      labelNames: ["status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: "switchboard_store_errors_total",
      help: "Store operations that failed because the database was unreachable (503 store_unavailable).",
      labelNames: ["kind"],
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: "switchboard_redis_errors_total",
      help: "Redis errors of the event relay between instances: a connection's (publisher, subscriber) or an event not published (publish).",
      labelNames: ["source"],
      registers: [registry],
    }),
    nearestExpiry: new Gauge({
      name: "switchboard_token_nearest_expiry_seconds",
      help: "Seconds until the nearest rotating token of an active installation expires, by the platform's clock (NaN when none rotates, or the store could not be read).",
      registers: [registry],
    }),
    eventStreams: new Gauge({
      name: "switchboard_event_streams_open",
      help: "Live event feeds (/api/events/stream) open on this instance.",
      registers: [registry],
    }),
    shuttingDown: new Gauge({
      name: "switchboard_shutting_down",
      help: "1 while this instance shuts down (SIGTERM received): readiness answers 503.",
      registers: [registry],
    }),
    refusals: new Counter({
      name: "switchboard_refusals_total",
      help: "Requests refused, by reason: host, origin, navigation, cookies, exposure, rate, size, credentials.",
      labelNames: ["reason"],
      registers: [registry],
    }),
    needingReinstall: new Gauge({
      name: "switchboard_installations_needing_reinstall",
      help: "Installations in the store whose tokens the platform refused for good: a person must install them again (NaN when the store could not be read).",
      registers: [registry],
    }),
    refresherLastSuccess: new Gauge({
      name: "switchboard_refresher_last_success_timestamp_seconds",
      help: "When this instance's background refresher last finished a pass without failing (Unix time; 0 before its first, NaN when BACKGROUND_REFRESH is off).",
      registers: [registry],
    }),
    refresherAllowed: new Gauge({
      name: "switchboard_refresher_allowed",
      help: "Refreshes this instance's background refresher may have under way now: REFRESHER_CONCURRENCY, fewer while the event loop lags (0 while it is off).",
      registers: [registry],
    }),
  };
}

/** This process's metrics. */
export function metrics(): Metrics {
  return processSingleton("metrics", createMetrics);
}

/**
 * A route handler whose every answer is recorded: `record` gets the metrics, the answer's status and the
 * seconds it took to answer (to its headers: a streamed body may go on). Wraps handleRoute's handler, so
 * refusals (a wrong Host, a navigation) count as well.
 */
export function measuredRoute<C, R extends Response | Promise<Response>>(
  handler: (request: Request, context: C) => R,
  record: (metrics: Metrics, status: string, seconds: number) => void,
): (request: Request, context: C) => R {
  return (request, context): R => {
    const started = process.hrtime.bigint();
    const recorded = (response: Response) => {
      record(metrics(), String(response.status), Number(process.hrtime.bigint() - started) / 1e9);
      return response;
    };
    const answer = handler(request, context);
    // An answer given at once (the token API's warm path) is handed on at once: no promise of its own.
    return (answer instanceof Response ? recorded(answer) : answer.then(recorded)) as R;
  };
}
