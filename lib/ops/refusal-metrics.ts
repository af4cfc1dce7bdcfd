import { observeRefusals } from "@/lib/http/refusal";
import { metrics } from "@/lib/metrics";

/**
 * Why a request was refused, as switchboard_refusals_total counts it: a closed set an operator alerts on. A
 * rise in `host` is a rebinding attempt or a console opened at a name it was not set up for; `origin` and
 * `navigation`, cross-site requests; `cookies`, oversized cookie headers; `exposure`, a server listening
 * wider than its configuration; `rate`, any 429 (a bound per client or per process); `size`, bodies too large
 * or too deep; `credentials`, a 401 (sign-in, API key, metrics token).
 */
export type RefusalReason = "host" | "origin" | "navigation" | "cookies" | "exposure" | "rate" | "size" | "credentials";

const BY_CODE: Record<string, RefusalReason> = {
  forbidden_host: "host",
  forbidden_origin: "origin",
  missing_origin: "origin",
  navigation_refused: "navigation",
  too_many_cookies: "cookies",
  listening_exposed: "exposure",
  payload_too_large: "size",
  json_too_deep: "size",
};

/** The reason a refusal counts under, or undefined for an answer that is no refusal (a 404, a 500, a 409…). */
export function refusalReason(code: string, status: number): RefusalReason | undefined {
  if (Object.hasOwn(BY_CODE, code)) return BY_CODE[code];
  if (status === 429) return "rate";
  if (status === 401) return "credentials";
  return undefined;
}

/** Counts every refusal the console answers, by reason, from now on (instrumentation-node.ts). */
export function countRefusals(): void {
  observeRefusals((code, status) => {
    const reason = refusalReason(code, status);
    if (reason) metrics().refusals.inc({ reason });
  });
}
