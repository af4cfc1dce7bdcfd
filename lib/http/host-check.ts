import "server-only";
import { getConfig } from "@/lib/config";
import { isAllowedHost, requestHost } from "@/lib/emulator";
import type { Refusal } from "./refusal";

/**
 * The Host a browser sends is the name of the site its page came from. A page on evil.example that has
 * made its name resolve to this server (DNS rebinding) is "same-origin" with itself, so its requests carry
 * Sec-Fetch-Site: same-origin and Origin: http://evil.example: only the Host tells them apart. Every page
 * (proxy.ts) and every route (handle-route.ts) answers only the names the console is reached at (APP_ORIGIN's,
 * ALLOWED_HOSTS, loopback on PORT); anything else gets this refusal.
 *
 * The advice names APP_ORIGIN first: a teammate who opens an exposed console by its address needs the console
 * to know that address as its own, or sign-in and the OAuth redirect send them to APP_ORIGIN's default,
 * http://localhost:PORT, which is their own machine. ALLOWED_HOSTS alone would let the page answer and then
 * do exactly that.
 */
export function hostRefusal(request: Request): Refusal | undefined {
  const host = requestHost(request);
  if (isAllowedHost(host, getConfig().allowedHosts)) return undefined;
  // Whatever the client sent, bounded: the page and the JSON say it back.
  const named = host.slice(0, 200);
  return {
    status: 403,
    code: "forbidden_host",
    message:
      `This console does not answer requests for ${named}: open it at the address it was set up for. ` +
      `If people are to open it at ${named}, its operator sets APP_ORIGIN=http://${named} (https:// behind TLS) and restarts, so that sign-in and the OAuth redirect come back there too. ` +
      "ALLOWED_HOSTS only adds another name for the same console: sign-in still returns to APP_ORIGIN.",
  };
}
