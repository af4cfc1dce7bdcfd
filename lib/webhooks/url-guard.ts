import { isIP } from "node:net";

/**
 * The SSRF guard of the webhook proxy. The proxy POSTs to a URL a user pasted, from inside the server's
 * network, so a URL is accepted only when it is, character for character, the shape the platform issues:
 * `https://<allowed host>/services/<team>/<hook>/<secret>`, or, with the embedded emulator as upstream,
 * `<this server's origin>/emulator/services/<team>/<hook>/<secret>`.
 *
 * The check works on the raw string before any parsing, because the WHATWG URL parser "helps": it decodes
 * `%2e` in hosts, turns `\` into `/`, resolves `..`, drops `:443`, lowercases hosts and reads `2130706433`
 * or `0x7f.1` as 127.0.0.1. Anything that parsing would change is refused rather than normalised.
 */

export interface WebhookUrlPolicy {
  /** Hosts the platform's webhooks live on (config.webhookHosts), lowercase. */
  webhookHosts: readonly string[];
  /** This server's origin when the embedded emulator is the upstream; null otherwise. */
  emulatorOrigin: string | null;
  /** Where the embedded emulator is mounted on that origin, for example "/emulator". */
  emulatorMountPath: string;
}

export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;
/** One identifying path segment: ids and secrets are letters, digits, `_` and `-`. */
const SEGMENT = "[A-Za-z0-9_-]{1,128}";
const SERVICES_PATH = new RegExp(`^/services/${SEGMENT}/${SEGMENT}/${SEGMENT}$`);
const HOST_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
/** Every notation the URL parser reads as an IPv4 address: dotted, decimal, octal, hex, shortened. */
const IPV4_ANY_NOTATION = /^((0x[0-9a-f]*|[0-9]+)\.){0,3}(0x[0-9a-f]*|[0-9]+)\.?$/i;

const refuse = (reason: string): WebhookUrlCheck => ({ ok: false, reason });

/** Whether `raw` may be POSTed to by the webhook proxy, and why not. Pure: no DNS, no network. */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): WebhookUrlCheck {
  if (raw.length === 0) return refuse("The webhook URL is empty.");
  if (raw.length > MAX_URL_LENGTH) return refuse(`The webhook URL is longer than ${MAX_URL_LENGTH} characters.`);
  // Printable ASCII only: no spaces, control characters, or Unicode lookalikes (IDN homographs).
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    return refuse("The webhook URL contains spaces, control characters or non-ASCII characters (lookalike hosts are refused).");
  }
  if (raw.includes("\\")) return refuse("The webhook URL contains a backslash.");
  if (raw.includes("%")) return refuse("The webhook URL contains percent-encoded characters; webhook URLs never need them.");
  if (raw.includes("@")) return refuse("The webhook URL contains '@': user names and passwords in URLs are refused.");
  if (raw.includes("?") || raw.includes("#")) return refuse("The webhook URL has a query string or fragment; webhook URLs have neither.");

  const parts = /^([^:/]+):\/\/([^/]*)(\/.*)?$/.exec(raw);
  if (!parts) return refuse("The webhook URL must look like https://host/services/T…/B…/secret.");
  const scheme = parts[1] ?? "";
  const authority = parts[2] ?? "";
  const path = parts[3] ?? "";

  const own = ownOriginPath(scheme, authority, path, policy);
  if (own !== null) return own;

  if (scheme !== "https") return refuse(`Only https webhook URLs are allowed, not "${scheme}:".`);
  if (authority.startsWith("[")) return refuse("IP address literals are refused: use the platform's webhook host.");
  const colon = authority.lastIndexOf(":");
  const host = colon >= 0 ? authority.slice(0, colon) : authority;
  if (colon >= 0) return refuse("The webhook URL names a port; only the default https port is allowed.");
  if (IPV4_ANY_NOTATION.test(host) || isIP(host) !== 0) {
    return refuse("IP address literals are refused: use the platform's webhook host.");
  }
  if (host !== host.toLowerCase()) return refuse("The host must be written in lowercase.");
  if (host.endsWith(".")) return refuse("The host ends with a dot.");
  if (!host.split(".").every((label) => HOST_LABEL.test(label))) return refuse("The host is not a valid host name.");
  if (!policy.webhookHosts.includes(host)) {
    return refuse(`The host ${host} is not an allowed webhook host (allowed: ${policy.webhookHosts.join(", ") || "none"}).`);
  }
  if (!SERVICES_PATH.test(path)) {
    return refuse("The path must be /services/ followed by exactly three segments (team, hook and secret).");
  }
  return canonical(raw);
}

/**
 * The embedded emulator's webhooks live on this server's own origin (which may be plain http on
 * localhost in development). That origin is configuration, not user input, so it is matched exactly.
 */
function ownOriginPath(scheme: string, authority: string, path: string, policy: WebhookUrlPolicy): WebhookUrlCheck | null {
  if (!policy.emulatorOrigin) return null;
  const origin = new URL(policy.emulatorOrigin);
  if (`${scheme}://${authority}` !== `${origin.protocol}//${origin.host}`) return null;
  const prefix = policy.emulatorMountPath.replace(/\/+$/, "");
  if (!path.startsWith(`${prefix}/services/`) || !SERVICES_PATH.test(path.slice(prefix.length))) {
    return refuse(`On this server only ${prefix}/services/ followed by exactly three segments (team, hook and secret) is allowed.`);
  }
  return canonical(`${scheme}://${authority}${path}`);
}

/** The last line of defence: the parser must read back exactly what was checked. */
function canonical(raw: string): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("The webhook URL is not a valid URL.");
  }
  if (url.href !== raw || url.username !== "" || url.password !== "") {
    return refuse("The webhook URL is not in canonical form.");
  }
  return { ok: true, url };
}
