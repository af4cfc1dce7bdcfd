/** Token prefixes worth keeping visible: they say what a token is (expiring bot, user, refresh, …). */
const TOKEN_PREFIX = /^(xoxe\.xox[a-z]-|xox[a-z]-|xoxe-)/;

/**
 * A token as the browser and the logs may see it: the kind prefix and the last 4 characters, for example
 * `xoxe.xoxb-…a1b2`. Short or unknown strings keep nothing but the last 4.
 */
export function maskToken(token: string): string {
  if (!token) return "";
  const prefix = TOKEN_PREFIX.exec(token)?.[1] ?? "";
  const rest = token.slice(prefix.length);
  if (rest.length <= 8) return `${prefix}…`;
  return `${prefix}…${rest.slice(-4)}`;
}

/** A URL that carries a secret in its path (an incoming webhook): the host and the first path segments. */
export function maskSecretUrl(url: string): string {
  try {
    const u = new URL(url);
    const segments = u.pathname.split("/").filter(Boolean);
    const shown = segments.slice(0, Math.max(0, segments.length - 1)).join("/");
    return `${u.origin}/${shown}${shown ? "/" : ""}…`;
  } catch {
    return "…";
  }
}
