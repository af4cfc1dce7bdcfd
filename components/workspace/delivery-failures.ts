/** Why a delivery failed, as the platform's client would say it, for each failure the emulator records. */
const FAILURES: Record<string, string> = {
  dispatch_failed: "dispatch_failed: the app did not answer (no Socket Mode connection, or its request URL could not be reached).",
  operation_timeout: "dispatch_failed: the app did not answer within 3 seconds.",
  http_service_error: "dispatch_failed: the app's request URL answered with an HTTP error.",
  no_url: "dispatch_failed: the app has no request URL for this (and no Socket Mode).",
  url_not_allowed: "dispatch_failed: the emulator may not send to the app's request URL.",
  invalid_answer: "The app answered something the platform does not read.",
  invalid_view: "The app answered with a view the platform refuses; the modal stays as it was.",
  push_limit_reached: "The app pushed a fourth view: a stack holds three.",
};

/**
 * Why an act's delivery failed, in one sentence as the platform's client says it, with an HTTP error's status
 * (a 401: the app refused the request's signature, a signing secret that is not the app's; a 403 is said as HTTP 403); nothing
 * when it did not fail.
 */
export function failureOf(answer: { outcome?: string | null; status?: number | null }): string | undefined {
  const reason = answer.outcome ? FAILURES[answer.outcome] : undefined;
  const status = answer.outcome === "http_service_error" && typeof answer.status === "number" ? answer.status : undefined;
  // A 401 is the app refusing the request's signature; a 403 (or another status) is said by its number only.
  const refused = status === 401 ? ": the app refused the request's signature" : "";
  return reason && status !== undefined ? `${reason.replace(/\.$/, "")} (HTTP ${status}${refused}).` : reason;
}
