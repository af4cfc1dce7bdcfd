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

/**
 * An incoming-webhook URL as a person may see it: its host and the last 4 characters of its secret, for
 * example `hooks.slack.com/…wxyz`. Enough to tell two webhooks apart, never enough to post to one.
 */
export function maskWebhookUrl(url: string): string {
  let host = "webhook";
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL: only the tail is shown.
  }
  const tail = url.length > 12 ? url.slice(-4) : "";
  return `${host}/…${tail}`;
}
