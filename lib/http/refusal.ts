import type { IncomingMessage, ServerResponse } from "node:http";
import { findProcessSingleton, processSingleton } from "@/lib/process-singleton";
import type { ErrorBody } from "./error-body";

/**
 * A refusal said to whoever asked, in the form they read: a browser that navigated here (Accept names
 * text/html) gets a page a person can read, with what to do; an API client, the console's JSON error body.
 * Every Host refusal (pages in proxy.ts, routes in handle-route.ts) and every refusal the Node server's own
 * guard makes before Next.js sees the request (lib/ops/request-guard.ts) answers through here.
 */
export interface Refusal {
  status: number;
  /** One of the console's error codes (error-codes.ts). */
  code: string;
  /** What happened and what to do, in a sentence or two. Plain text: the page escapes it. */
  message: string;
}

const TITLES: Record<number, string> = {
  403: "This console does not answer at this address",
  431: "The request carried too many cookies",
  503: "This console is not serving",
};

/** Whether the request's Accept header asks for a page: what a browser's navigation sends, never fetch's default. */
export function wantsPage(accept: string | null | undefined): boolean {
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept ?? "");
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * The page: self-contained (no script, no stylesheet to fetch from a host it just refused), light and dark
 * alike, and saying the code so a person can quote it.
 */
export function refusalPage(refusal: Refusal): string {
  const title = TITLES[refusal.status] ?? "This request was refused";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Switchboard</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 3rem 1.25rem; }
main { max-width: 40rem; margin: 0 auto; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 1rem; }
p { margin: 0 0 1rem; overflow-wrap: anywhere; }
code { font: 0.9em ui-monospace, monospace; }
.meta { opacity: 0.7; font-size: 0.875rem; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(refusal.message)}</p>
<p class="meta">Switchboard · HTTP ${refusal.status} · <code>${escapeHtml(refusal.code)}</code></p>
</main>
</body>
</html>
`;
}

function body(refusal: Refusal, page: boolean): { contentType: string; text: string } {
  if (page) return { contentType: "text/html; charset=utf-8", text: refusalPage(refusal) };
  const json: ErrorBody = { ok: false, error: refusal.code, message: refusal.message };
  return { contentType: "application/json", text: JSON.stringify(json) };
}

/** The refusal as a Fetch Response (route handlers, proxy.ts). */
export function refusalResponse(request: Request, refusal: Refusal, headers: Record<string, string> = {}): Response {
  noteRefusal(refusal.code, refusal.status);
  const { contentType, text } = body(refusal, wantsPage(request.headers.get("accept")));
  return new Response(text, { status: refusal.status, headers: { ...headers, "content-type": contentType, "cache-control": "no-store" } });
}

/**
 * The refusal written on Node's own response, before Next.js has seen the request; the connection closes after
 * it, so a client that sends more of the same pays for a new connection.
 */
export function writeRefusal(request: IncomingMessage, response: ServerResponse, refusal: Refusal): void {
  noteRefusal(refusal.code, refusal.status);
  const { contentType, text } = body(refusal, wantsPage(request.headers.accept));
  response.writeHead(refusal.status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    connection: "close",
  });
  response.end(text);
}

type RefusalObserver = (code: string, status: number) => void;
const OBSERVER = "refusalObserver";

/**
 * Who counts refusals (lib/metrics.ts registers, once per process): the wire knows no metrics, and every
 * error answer passes through here or toErrorResponse, which both say what they answered.
 */
export function observeRefusals(observer: RefusalObserver): void {
  processSingleton(OBSERVER, () => observer);
}

/** Says an error answer to the observer, if any. */
export function noteRefusal(code: string, status: number): void {
  findProcessSingleton<RefusalObserver>(OBSERVER)?.(code, status);
}
