import "server-only";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { getConfig } from "@/lib/config";
import { writeRefusal, type Refusal } from "@/lib/http/refusal";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { countCookies, MAX_COOKIES } from "./cookie-bound";
import { listeningExposure } from "./exposure";

/**
 * Checks every request in the Node server's own request listener, before Next.js sees it: what Next.js would
 * otherwise spend on (cookies past the bound, cookie-bound.ts), and what only the server knows (the address it
 * listens on, exposure.ts). Next.js hands the application neither its server nor its listener, so the server
 * is learnt from the diagnostics channel Node publishes every request on, just before it emits 'request':
 * at its first request, the server's request listeners are put behind the guard, that request included.
 */

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

function cookieRefusal(request: IncomingMessage): Refusal | undefined {
  const count = countCookies(request.headers.cookie);
  if (count <= MAX_COOKIES) return undefined;
  return {
    status: 431,
    code: "too_many_cookies",
    message: `The request carried ${count} cookies; the server reads at most ${MAX_COOKIES} (this console sets fewer than ten). Clear this site's cookies and try again.`,
  };
}

/** Puts `server`'s request listeners behind the guard. */
function guardServer(server: Server): void {
  const exposure = listeningExposure(server.address(), getConfig());
  if (exposure) logger.error({ address: server.address() }, exposure);
  const exposureRefusal: Refusal | undefined = exposure === undefined ? undefined : { status: 503, code: "listening_exposed", message: exposure };
  const listeners = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const refusal = exposureRefusal ?? cookieRefusal(request);
    if (refusal) return writeRefusal(request, response, refusal);
    for (const listener of listeners) listener.call(server, request, response);
  });
}

/** Guards every HTTP server of this process from its first request on, once per process (instrumentation-node.ts). */
export function guardRequests(): void {
  processSingleton("requestGuard", () => {
    const guarded = new WeakSet<Server>();
    subscribe("http.server.request.start", (message) => {
      const { server } = message as { server: Server };
      if (guarded.has(server)) return;
      guarded.add(server);
      guardServer(server);
    });
    return true;
  });
}
