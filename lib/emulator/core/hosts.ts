/**
 * Which Host a request may name. A browser sends, as Host, the name of the site whose page it is on; a DNS
 * rebinding page on evil.example reaches a server on this machine under the name evil.example, with
 * Sec-Fetch-Site same-origin and an Origin of evil.example. Only a list of the names the server is really
 * reached at tells it apart, so "the request's own origin" is never trusted on its own.
 *
 * Framework-free: the console (lib/http) and the emulator's admin surface share it.
 */

/** The host name of a Host header or an allowed-hosts entry, lower-cased, without the port (IPv6 keeps its brackets). */
function splitHost(host: string): { name: string; port: string | undefined } {
  const value = host.trim().toLowerCase();
  const bracketed = /^(\[[^\]]*\])(?::(\d+))?$/.exec(value);
  if (bracketed) return { name: bracketed[1]!, port: bracketed[2] };
  const colon = value.lastIndexOf(":");
  // A bare IPv6 address (::1) has several colons and no port.
  if (colon < 0 || value.indexOf(":") !== colon) return { name: value, port: undefined };
  return { name: value.slice(0, colon), port: value.slice(colon + 1) };
}

/**
 * Whether a host (with or without a port, IPv6 bracketed or not) names this machine's loopback interface:
 * `localhost`, `127.0.0.0/8` or `::1`.
 */
export function isLoopbackHost(host: string): boolean {
  const { name } = splitHost(host);
  const bare = name.replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Whether a Host header names one of `allowed`. An entry `name:port` matches that host and port only; an
 * entry without a port matches the name on any port (a proxy's public port is not the server's own).
 */
export function isAllowedHost(hostHeader: string | null | undefined, allowed: readonly string[]): boolean {
  if (!hostHeader) return false;
  const host = splitHost(hostHeader);
  return allowed.some((entry) => {
    const want = splitHost(entry);
    return want.name === host.name && (want.port === undefined || want.port === host.port);
  });
}

/** Whether an Origin header (scheme://host[:port]) names an allowed host over http or https. */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.origin === origin && isAllowedHost(url.host, allowed);
}

/** The Host a request names: its Host header, else (a Request built in-process has none) its URL's. */
export function requestHost(request: Request): string {
  return request.headers.get("host") ?? new URL(request.url).host;
}
