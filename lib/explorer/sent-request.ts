/**
 * The upstream request of one call, rebuilt from what the browser itself sent to /api/call/{method}. The
 * console forwards a call's parameters by one rule (lib/platform/call-arguments.ts, which the server uses
 * too), so the browser knows the whole request; the record the server returns in x-upstream-request gives
 * what only the server knows (the upstream's URL, the masked Authorization) and is cut to fit proxies.
 */
import { callArguments, parseCallBody, type CallBody } from "@/lib/platform/call-arguments";
import type { WireRecord } from "@/lib/platform/wire-header";
import type { WireRequest } from "@/lib/platform/call-method";
import type { CallRequest } from "./params";

const formEncode = (params: Record<string, string>) => new URLSearchParams(Object.entries(params)).toString();

/** The request as it went upstream, or null when the record does not name the method's URL (then the record is all there is). */
export function sentUpstreamRequest(call: CallRequest, recorded: WireRecord): WireRequest | null {
  const query = recorded.url.indexOf("?");
  const path = query < 0 ? recorded.url : recorded.url.slice(0, query);
  if (!path.endsWith(`/api/${call.method}`) || recorded.method.toUpperCase() !== call.httpMethod) return null;
  let body: CallBody = { form: {} };
  if (call.httpMethod === "POST") {
    const parsed = parseCallBody(call.contentType ?? "", call.body ?? "");
    if ("problem" in parsed) return null;
    body = parsed;
  }
  const args = callArguments(new URLSearchParams(call.query), body);
  const headers = recorded.headers;
  if (call.httpMethod === "GET") {
    const search = "params" in args ? formEncode(args.params) : "";
    return { method: "GET", url: search ? `${path}?${search}` : path, headers };
  }
  return { method: "POST", url: path, headers, body: "json" in args ? JSON.stringify(args.json) : formEncode(args.params) };
}
