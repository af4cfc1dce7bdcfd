import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { findProcessSingleton, processSingleton } from "@/lib/process-singleton";

/**
 * Which address a request comes from, for bounds per client (lib/events/viewers.ts). Next.js hands a route
 * no socket, and fills X-Forwarded-For with the socket's address only when the client sent none: a client's
 * own X-Forwarded-For reaches the route as it was sent. So the address is taken from X-Forwarded-For only
 * when TRUSTED_PROXY says proxies append to it, and otherwise from the socket, which the server records in
 * a header of its own on every request before Next.js sees it (recordPeerAddresses), overwriting whatever
 * a client sent under that name.
 */

export const PEER_ADDRESS_HEADER = "x-switchboard-peer-address";
const HOOK = "peerAddressHook";

/**
 * Records each HTTP request's socket address in PEER_ADDRESS_HEADER, once per process (instrumentation-node.ts).
 * Node publishes every request on this diagnostics channel before the server's own handler runs.
 */
export function recordPeerAddresses(): void {
  processSingleton(HOOK, () => {
    subscribe("http.server.request.start", (message) => {
      const { request, socket } = message as { request: IncomingMessage; socket: Socket };
      request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
    });
    return true;
  });
}

/** An IPv6 address's eight groups, or undefined when it is not one. */
function ipv6Groups(address: string): string[] | undefined {
  if (!address.includes(":")) return undefined;
  const [head = "", tail, ...rest] = address.split("::");
  if (rest.length > 0) return undefined;
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  return groups.every((g) => /^[0-9a-f]{1,4}$/.test(g)) ? groups.map((g) => g.replace(/^0+(?=.)/, "")) : undefined;
}

/**
 * The name a client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an
 * IPv6 address by its /64, since one subscriber is given a whole /64 and can use any address in it.
 */
export function addressBucket(address: string): string {
  const value = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(value);
  if (mapped) return mapped[1]!;
  const groups = ipv6Groups(value.replace(/%.*$/, ""));
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : value || "unknown";
}

/**
 * The client's address: with `trustedProxyHops` proxies in front, the X-Forwarded-For entry that many
 * from the right (the one the outermost trusted proxy appended; entries left of it are the client's own
 * say); otherwise the socket's. Without the recording hook (a test, or a server that did not install it),
 * the last X-Forwarded-For entry, which Next.js sets to the socket's address when the client sent none.
 */
export function clientAddress(headers: Headers, trustedProxyHops: number): string {
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (trustedProxyHops > 0) {
    const entry = forwarded[forwarded.length - trustedProxyHops];
    if (entry) return addressBucket(entry);
  }
  const peer = findProcessSingleton<boolean>(HOOK) ? headers.get(PEER_ADDRESS_HEADER) : null;
  return addressBucket(peer ?? forwarded.at(-1) ?? "unknown");
}
