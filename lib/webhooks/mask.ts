/**
 * A webhook URL as a person may see it: its host and the last 4 characters of its secret, for example
 * `hooks.slack.com/…wxyz`. Enough to tell two webhooks apart, never enough to post to one.
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
