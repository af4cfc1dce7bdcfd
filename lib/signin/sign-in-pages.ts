import { THEME_SCRIPT } from "@/lib/theme";
import type { SignInProblem } from "./complete-sign-in";

const EXPLANATIONS: Record<SignInProblem, { title: string; text: string }> = {
  missing: {
    title: "The sign-in state is missing",
    text: "This browser has no record of starting a sign-in, or the platform sent it back without its state. Sign-ins must start from this console, in this browser.",
  },
  mismatched: {
    title: "The sign-in state does not match",
    text: "The state the platform sent back is not one this browser started. Someone may have sent you this link.",
  },
  expired: { title: "The sign-in took too long", text: "A sign-in must be completed within 10 minutes of starting it." },
  replayed: {
    title: "This sign-in was already completed",
    text: "This callback has been used before (a reload or the back button). A sign-in's state is good only once.",
  },
  access_denied: { title: "The sign-in was cancelled", text: "Nobody was signed in: the platform's sign-in page was cancelled." },
  missing_code: { title: "The platform sent no authorization code", text: "The callback carried neither a code nor an error." },
  code_rejected: {
    title: "The sign-in code was rejected",
    text: "The platform says the code was already used or has expired (a code is good for 10 minutes, by the platform's clock).",
  },
  exchange_failed: { title: "The platform refused the sign-in", text: "openid.connect.token did not succeed." },
  bad_signature: {
    title: "The sign-in could not be verified",
    text: "The ID token's signature does not verify with the platform's keys, so it may not come from the platform.",
  },
  wrong_issuer: { title: "The sign-in came from elsewhere", text: "The ID token was issued by someone other than the platform." },
  wrong_audience: { title: "The sign-in was for another app", text: "The ID token was issued to another app than this console's." },
  token_expired: {
    title: "The sign-in is too old",
    text: "The ID token has expired or was issued too long ago, by the platform's clock. Sign in again for a fresh one.",
  },
  nonce_mismatch: {
    title: "The sign-in was not started here",
    text: "The ID token's nonce is not the one this browser sent, so the code was obtained in another sign-in.",
  },
  invalid_id_token: { title: "The sign-in could not be read", text: "The platform's ID token is malformed or does not say who signed in." },
  profile_too_large: {
    title: "Your profile is too large to keep",
    text: "What the platform says about you (a name, an email, a picture's address) is longer than the console keeps in its sign-in cookie.",
  },
};

/**
 * The error codes the platform's sign-in page sends back on the redirect (OAuth 2.0's, RFC 6749 §4.1.2.1).
 * The callback URL is anyone's to write: a code is named only when it is one of these, so a crafted link
 * cannot put its words on the console's page.
 */
const PLATFORM_ERRORS = new Map<string, string>([
  ["access_denied", "Nobody was signed in: the platform's sign-in page was cancelled."],
  ["invalid_request", "The platform found the sign-in request malformed."],
  ["unauthorized_client", "The platform does not let this app sign people in."],
  ["invalid_scope", "The platform refused the scopes the sign-in asked for."],
  ["server_error", "The platform failed while signing you in. Try again."],
  ["temporarily_unavailable", "The platform cannot sign people in right now. Try again in a few minutes."],
]);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The console's dark colours (app/globals.css), as the install callback's error page has them. */
const DARK =
  "color-scheme:dark;--bg:#020617;--card:#0f172a;--ink:#f1f5f9;--muted:#cbd5e1;--line:#334155;--code-bg:#450a0a;--code-ink:#fecaca;--code-line:#7f1d1d;--accent:#a7f3d0;--accent-ink:#0f172a";

/** A page of its own (no console around it: whoever sees it may not be signed in), in the install callback error page's look. */
function renderPage(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Switchboard</title>
<script>${THEME_SCRIPT}</script>
<style>
:root{color-scheme:light;--bg:#f8fafc;--card:#fff;--ink:#0f172a;--muted:#475569;--line:#e2e8f0;--code-bg:#fef2f2;--code-ink:#b91c1c;--code-line:#fecaca;--accent:#047857;--accent-ink:#fff}
:root[data-theme=dark]{${DARK}}@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${DARK}}}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--ink)}
main{max-width:36rem;margin:4rem auto;padding:2rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem;box-shadow:0 1px 2px rgba(0,0,0,.05)}
.code{display:inline-block;font:12px ui-monospace,monospace;background:var(--code-bg);color:var(--code-ink);border:1px solid var(--code-line);border-radius:.375rem;padding:.125rem .5rem}
h1{font-size:1.25rem;margin:.75rem 0 .5rem}p{color:var(--muted);line-height:1.5}
a.button{display:inline-block;margin-top:1rem;background:var(--accent);color:var(--accent-ink);text-decoration:none;padding:.5rem 1rem;border-radius:.5rem;font-weight:600}
</style></head>
<body><main>
${body}
</main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

/** The 400 page of a failed sign-in: what went wrong, and "Sign in again". */
export function renderSignInErrorPage(problem: SignInProblem, detail?: string, platformError?: string): Response {
  const platformText = platformError ? PLATFORM_ERRORS.get(platformError) : undefined;
  const shownCode = platformError ? (platformText === undefined ? "unknown" : platformError) : undefined;
  const { title, text } =
    platformError && platformError !== "access_denied"
      ? { title: "The platform stopped the sign-in", text: platformText ?? "The platform sent back an error this console does not know." }
      : EXPLANATIONS[problem];
  // Only the console's own text reaches the page: for a platform error, its named code stands for the detail.
  const shownDetail = platformError ? undefined : detail;
  return renderPage(
    400,
    title,
    `<span class="code" data-problem="${problem}">${problem}</span>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
${shownCode ? `<p>The platform's error code: <code data-platform-error="${escapeHtml(shownCode)}">${escapeHtml(shownCode)}</code></p>` : ""}
${shownDetail ? `<p>${escapeHtml(shownDetail)}</p>` : ""}
<a class="button" href="/signin">Sign in again</a>`,
  );
}

/** Where sign-out lands: nothing of the console, and a way back in. */
export function renderSignedOutPage(): Response {
  return renderPage(
    200,
    "Signed out",
    `<h1>You are signed out</h1>
<p>This browser no longer holds your sign-in to Switchboard.</p>
<a class="button" href="/signin">Sign in again</a>`,
  );
}
