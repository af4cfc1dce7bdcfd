/**
 * Fault injection on the platform surface (Web API methods and incoming webhooks; never the admin
 * surface or the pages): added latency, HTTP 500s, and dropped connections, set by POST /admin/faults.
 *
 * A dropped connection is a Response whose body stream fails before its first byte. An in-process
 * caller sees `await response.text()` reject; the standalone server (adapters/node-server.ts) reads the first
 * chunk before it writes the status line, so it destroys the socket and the client sees a connection
 * reset with no response at all, as when a load balancer drops the connection.
 */
import { errorToResponse, jsonResponse, PlainTextError } from "../core/errors";
import type { FaultSettings } from "../types";

/** The name a fault targets for incoming-webhook posts (Web API calls use the method name). */
export const WEBHOOK_FAULT_TARGET = "incoming-webhook";

export class DroppedConnectionError extends Error {
  constructor() {
    super("connection dropped by the emulator's fault injection");
    this.name = "DroppedConnectionError";
  }
}

export function droppedConnectionResponse(): Response {
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.error(new DroppedConnectionError());
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json; charset=utf-8" } });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Applies the faults that target `name`: waits the added latency, then returns a failure response
 * (500 or dropped) when the dice say so, or null to let the request through.
 */
export async function applyFaults(faults: FaultSettings, name: string, random: () => number = Math.random): Promise<Response | null> {
  if (faults.methods.length > 0 && !faults.methods.includes(name)) return null;
  if (faults.latencyMs > 0) await sleep(faults.latencyMs);
  if (faults.dropRate > 0 && random() < faults.dropRate) return droppedConnectionResponse();
  if (faults.errorRate > 0 && random() < faults.errorRate) {
    // The platform's answers when it fails internally: incoming webhooks answer plain text like all
    // their errors, Web API methods their JSON error body.
    if (name === WEBHOOK_FAULT_TARGET) return errorToResponse(new PlainTextError(500, "rollup_error"));
    return jsonResponse({ ok: false, error: "fatal_error" }, 500);
  }
  return null;
}
