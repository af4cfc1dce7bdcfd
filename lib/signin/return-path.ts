/** Longer return paths are not kept: the sign-in state cookie that holds them must fit in a browser's 4 KB. */
const MAX_RETURN_PATH = 1024;

/**
 * Where a sign-in may send the person back: a path of this console, as a browser would send it (every
 * character outside printable ASCII percent-encoded, so it fits in a Location header, which holds Latin-1
 * only). Anything else goes back to the dashboard: another site, a protocol-relative //host, a backslash
 * (some browsers read it as a slash), NUL and other control characters, and a path too long to remember.
 */
export function safeReturnPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\") || /[\u0000-\u001f\u007f-\u009f]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, "http://console.invalid");
  } catch {
    return "/";
  }
  if (url.origin !== "http://console.invalid") return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Checked again once the URL parser has tidied the path: `/.//evil.example` and `/a/..//evil.example`
  // become `//evil.example`, which a browser reads as another site.
  if (path.startsWith("//") || path.startsWith("/\\")) return "/";
  return path.length <= MAX_RETURN_PATH && /^\/[\x21-\x7e]*$/.test(path) ? path : "/";
}
