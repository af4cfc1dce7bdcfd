import { escapeHtml, standalonePage } from "@/lib/oauth/standalone-page";
import type { InstallProblem } from "@/lib/oauth/install";
import type { CallbackNextSteps } from "@/lib/oauth/outside-install";

const EXPLANATIONS: Record<InstallProblem, { title: string; text: string }> = {
  missing: {
    title: "The install state is missing",
    text: "This browser has no record of starting an install, or the callback came without its state. Installs must start from this console, in this browser.",
  },
  mismatched: {
    title: "The install state does not match",
    text: "The state the platform sent back is not one this browser started. Someone may have sent you this link, or another install replaced it.",
  },
  expired: {
    title: "The install took too long",
    text: "Installs must be completed within 10 minutes of clicking “Add to workspace”.",
  },
  replayed: {
    title: "This install was already completed",
    text: "This callback has been used before (a reload or the back button). A state is good only once; your stored installations are unchanged.",
  },
  access_denied: {
    title: "The install was cancelled",
    text: "The app was not allowed into the workspace on the consent page: nothing was installed, and nothing changed in the workspace.",
  },
  missing_code: {
    title: "The platform sent no authorization code",
    text: "The callback carried neither a code nor an error.",
  },
  code_rejected: {
    title: "The authorization code was rejected",
    text: "The platform says the code was already used or has expired. Your stored installations are unchanged.",
  },
  exchange_failed: {
    title: "The platform refused the install",
    text: "oauth.v2.access did not succeed.",
  },
};

/**
 * The error codes the platform's authorization page sends back on the redirect (OAuth 2.0's, RFC 6749
 * §4.1.2.1; Cancel on the consent page is access_denied), each with what it means for this install. The
 * callback URL is anyone's to write: a code is named only when it is one of these, anything else shows as
 * "unknown", so a crafted link cannot put its words on the console's own page.
 */
const PLATFORM_ERRORS = new Map<string, string>([
  ["access_denied", "The app was not allowed into the workspace on the consent page."],
  ["invalid_request", "The platform found the install request malformed: a parameter missing, repeated or not valid."],
  ["unauthorized_client", "The platform does not let this app install this way."],
  ["unsupported_response_type", "The platform does not answer install requests of this kind."],
  [
    "invalid_scope",
    "The install asked for a scope the app does not declare, or one the platform does not know: compare BOT_SCOPES and USER_SCOPES, when set, with the app's settings.",
  ],
  ["server_error", "The platform failed while handling the install. Try again."],
  ["temporarily_unavailable", "The platform cannot take installs right now. Try again in a few minutes."],
]);
export const UNKNOWN_PLATFORM_ERROR = "unknown";

/** The platform's error as the page names it: a known code and its meaning, or "unknown". */
function describePlatformError(code: string): { code: string; text: string } {
  const text = PLATFORM_ERRORS.get(code);
  return text === undefined ? { code: UNKNOWN_PLATFORM_ERROR, text: "The platform sent back an error this console does not know." } : { code, text };
}

/** The page's way on: start again, and the console for whoever may use it, or the app's own page for anyone else. */
function nextStepLinks(next: CallbackNextSteps): string {
  const away = next.console
    ? `<a class="secondary" href="/">Back to the console</a>`
    : next.appPage
      ? `<a class="secondary" href="${escapeHtml(next.appPage.url)}">${escapeHtml(next.appPage.name ? `${next.appPage.name}'s page` : "The app's page")}</a>`
      : "";
  return `<div class="actions"><a class="button" href="${escapeHtml(next.retryHref)}">Start again</a>${away}</div>`;
}

/**
 * The 400 page of a failed callback: which problem, and a way on (`next`: lib/oauth/outside-install.ts).
 * `platformError` is the callback URL's `error` parameter: the platform stopped the install (the problem is
 * then access_denied).
 */
export function renderCallbackErrorPage(problem: InstallProblem, next: CallbackNextSteps, detail?: string, platformError?: string | null): Response {
  const platform = platformError ? describePlatformError(platformError) : undefined;
  // Only the console's own text reaches the page: for a platform error, its named code stands for the detail.
  const { title, text } =
    platform && platform.code !== "access_denied" ? { title: "The platform stopped the install", text: platform.text } : EXPLANATIONS[problem];
  const shownDetail = platform ? undefined : detail;
  const body = `<span class="code" data-problem="${problem}">${problem}</span>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
${platform ? `<p>The platform's error code: <code data-platform-error="${escapeHtml(platform.code)}">${escapeHtml(platform.code)}</code></p>` : ""}
${shownDetail ? `<p>${escapeHtml(shownDetail)}</p>` : ""}
${nextStepLinks(next)}`;
  const html = standalonePage(title, body);
  return new Response(html, { status: 400, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
