/**
 * The charset warnings the platform answers beside a call whose body's Content-Type is not as it recommends
 * (https://docs.slack.dev/apis/web-api/#responses, "Warnings"; the platform's developer blog post "Well
 * wishes and warnings in the Web API"):
 * - missing_charset: a non-form body (application/json, text/plain) whose Content-Type names no charset.
 *   The platform adds "[WARN] A Content-Type HTTP header was presented but did not declare a charset, such
 *   as a 'utf-8'" to response_metadata.messages.
 * - superfluous_charset: a form body (application/x-www-form-urlencoded, multipart/form-data) whose
 *   Content-Type names one, which those types do not define. The platform sends the code alone.
 * The call itself goes through either way; the warnings ride on the answer, success or error.
 */

interface Warning {
  code: string;
  message?: string;
}

const MISSING_CHARSET: Warning = {
  code: "missing_charset",
  message: "[WARN] A Content-Type HTTP header was presented but did not declare a charset, such as a 'utf-8'",
};
const SUPERFLUOUS_CHARSET: Warning = { code: "superfluous_charset" };

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The charset warning a request earns, if any: only a POST with a body's Content-Type is judged. */
export function charsetWarning(request: Request): Warning | undefined {
  if (request.method === "GET" || request.method === "HEAD") return undefined;
  const header = request.headers.get("content-type");
  if (!header) return undefined;
  const [mediaType = "", ...parameters] = header.toLowerCase().split(";");
  const hasCharset = parameters.some((p) => p.trim().startsWith("charset="));
  if (FORM_TYPES.includes(mediaType.trim())) return hasCharset ? SUPERFLUOUS_CHARSET : undefined;
  return hasCharset ? undefined : MISSING_CHARSET;
}

/**
 * `body` with a warning added as the platform writes warnings: `warning` is every code comma-joined,
 * response_metadata.warnings lists them, and response_metadata.messages carries the [WARN] line, beside
 * whatever warnings (message_truncated) and messages the answer already had.
 */
export function withWarning(body: Record<string, unknown>, warning: Warning): Record<string, unknown> {
  const metadata = (typeof body.response_metadata === "object" && body.response_metadata !== null ? body.response_metadata : {}) as Record<string, unknown>;
  const warnings = [...(Array.isArray(metadata.warnings) ? (metadata.warnings as string[]) : []), warning.code];
  const messages = [...(Array.isArray(metadata.messages) ? (metadata.messages as string[]) : []), ...(warning.message ? [warning.message] : [])];
  return {
    ...body,
    warning: warnings.join(","),
    response_metadata: { ...metadata, warnings, ...(messages.length > 0 ? { messages } : {}) },
  };
}
