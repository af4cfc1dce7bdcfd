/**
 * Link targets from blocks are the app's (or a member's) text: only web and mail links become links. Anything
 * else (`javascript:`, `data:`, a relative path that would act on the console's own origin) is shown as text.
 */
const ALLOWED = new Set(["http:", "https:", "mailto:"]);

export function safeHref(url: unknown): string | null {
  if (typeof url !== "string") return null;
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  return ALLOWED.has(parsed.protocol) ? parsed.href : null;
}
