import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { getConfig } from "@/lib/config";
import { closeEmbeddedEmulator } from "@/lib/embedded-emulator";
import { getEventSink } from "@/lib/events/sink";
import { closeEventStreams } from "@/lib/events/stream";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { refreshesSettled } from "@/lib/installations/rotation/refresh";
import { stopRefresher } from "@/lib/installations/rotation/refresher";
import { stopStartUpReplay } from "@/lib/installations/rotation/start-up-replay";
import { closeStore } from "@/lib/store";
import { allHistoryWritesSettled } from "@/lib/call/call-history";
import { flushAudit } from "@/lib/token-api/audit";
import { metrics } from "@/lib/metrics";

/**
 * Graceful shutdown on SIGTERM (and SIGINT: Ctrl-C on `npm start`), for an instance behind a load balancer.
 * Next.js's own handler would exit at once; NEXT_MANUAL_SIG_HANDLE=true (scripts/start.sh, the Dockerfile)
 * leaves the signals to this one, which:
 *
 * 1. answers 503 on GET /api/ready, so a load balancer that checks it stops sending new requests, and waits
 *    SHUTDOWN_DELAY_S for it to notice (0 by default: a proxy that retries another instance when this one
 *    refuses a connection, as nginx does, needs no wait);
 * 2. stops listening (new connections are refused, so the balancer sends them to another instance) and
 *    answers every request still arriving on an open connection with `Connection: close`;
 * 3. stops the background refresher and the start-up replay's retries (a refresh under way finishes and is
 *    settled in the store), and closes every live event stream with a reconnect hint (each viewer's
 *    EventSource reconnects elsewhere);
 * 4. waits for the requests in flight (a refresh a request started included) and the explorer history's
 *    writes that follow their answers, writes the token API's audit,
 *    closes Redis and the store;
 * 5. exits 0, or 1 if all that took longer than SHUTDOWN_TIMEOUT_S (what was left is logged).
 *
 * A second signal exits at once, unless it comes within SAME_PRESS_MS of the first: Ctrl-C on `npm start`
 * reaches the server twice, once from the terminal (which signals the whole process group) and once from npm,
 * which passes the signals it gets on to its script.
 */

interface ShutdownState {
  installed: boolean;
  shuttingDown: boolean;
  servers: Set<Server>;
  inFlight: number;
}

const state = () => processSingleton("shutdown", (): ShutdownState => ({ installed: false, shuttingDown: false, servers: new Set(), inFlight: 0 }));

/** Whether SIGTERM was received: readiness answers 503 from then on. */
export function isShuttingDown(): boolean {
  return state().shuttingDown;
}

/** A signal this soon after the first is the same one delivered twice (see installGracefulShutdown), not a second. */
const SAME_PRESS_MS = 1_000;

/** How viewers of a closed event stream are told to wait before reconnecting (spread up to twice this). */
const STREAM_RETRY_MS = 1_000;

/**
 * Counts the HTTP requests in flight and learns the server that listens, from the diagnostics channel
 * Node publishes every request on (Next.js hands the application neither its server nor its sockets).
 */
function watchRequests(): void {
  const s = state();
  subscribe("http.server.request.start", (message) => {
    const { response, server } = message as { request: IncomingMessage; response: ServerResponse; server: Server };
    s.servers.add(server);
    s.inFlight += 1;
    // 'close' comes once whether the answer was sent or the client went away.
    response.once("close", () => (s.inFlight -= 1));
    if (s.shuttingDown && !response.headersSent) response.setHeader("connection", "close");
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, deadline: number): Promise<boolean> {
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/** The shutdown itself; resolves with whether it finished within the bound. Exported for tests that run it in-process. */
export async function shutDown(signal: string): Promise<boolean> {
  const s = state();
  const { shutdownDelayS, shutdownTimeoutS } = getConfig().ops;
  const started = Date.now();
  const deadline = started + shutdownTimeoutS * 1000;
  s.shuttingDown = true;
  metrics().shuttingDown.set(1);
  logger.info({ signal, inFlight: s.inFlight, delayS: shutdownDelayS, timeoutS: shutdownTimeoutS }, "shutting down: readiness answers 503");
  if (shutdownDelayS > 0) await sleep(shutdownDelayS * 1000);

  for (const server of s.servers) {
    server.close();
    server.closeIdleConnections();
  }
  const [streams] = await Promise.all([closeEventStreams(STREAM_RETRY_MS, Math.max(0, deadline - Date.now())), stopRefresher(), stopStartUpReplay()]);
  const drained = await until(() => s.inFlight === 0, deadline);
  // A refresh whose request answered early (its first attempt lost) goes on after it: settled before the store closes.
  await refreshesSettled(deadline);
  // The explorer's history entries are written after their answers went (lib/call/call-history.ts): written before the store closes.
  await allHistoryWritesSettled(deadline);
  await flushAudit();
  await closeEmbeddedEmulator();
  await getEventSink()
    .close?.()
    .catch(() => undefined);
  await closeStore().catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : "unknown" }, "the store did not close cleanly"));
  const withinBound = drained && Date.now() <= deadline;
  logger.info(
    { ms: Date.now() - started, eventStreamsClosed: streams, ...(withinBound ? {} : { requestsLeft: s.inFlight }) },
    withinBound ? "shut down cleanly" : `shut down after SHUTDOWN_TIMEOUT_S (${shutdownTimeoutS} s) with work left`,
  );
  return withinBound;
}

/**
 * Installs the handlers (instrumentation-node.ts), once per process. Without NEXT_MANUAL_SIG_HANDLE, Next.js
 * exits on the signal before any of this can run: said once at start.
 */
export function installGracefulShutdown(): void {
  const s = state();
  if (s.installed) return;
  s.installed = true;
  watchRequests();
  if (!process.env.NEXT_MANUAL_SIG_HANDLE && process.env.NODE_ENV === "production") {
    logger.warn(
      "NEXT_MANUAL_SIG_HANDLE is not set: Next.js exits at once on SIGTERM, without a graceful shutdown (scripts/start.sh and the Dockerfile set it)",
    );
  }
  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (s.shuttingDown && Date.now() - firstSignalAt < SAME_PRESS_MS) return;
    if (s.shuttingDown) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    firstSignalAt = Date.now();
    const { shutdownTimeoutS } = getConfig().ops;
    // The bound holds even if a step hangs past its own deadline.
    setTimeout(
      () => {
        logger.error({ timeoutS: shutdownTimeoutS }, "shutdown did not finish in time: exiting");
        process.exit(1);
      },
      shutdownTimeoutS * 1000 + 1_000,
    ).unref();
    void shutDown(signal).then(
      (clean) => process.exit(clean ? 0 : 1),
      (error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : "unknown" }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
