import { ZodError } from "zod";
import { logger } from "@/lib/log";
import { AppError } from "./app-error";
import type { ErrorBody } from "./error-body";
import { noteRefusal } from "./refusal";

/**
 * The one place errors become responses: AppError answers with its own status, a ZodError with 422 and
 * the paths that failed (never the values, which may be secrets), anything else with a plain 500.
 */
export function toErrorResponse(error: unknown): Response {
  if (error instanceof AppError) return answer(error);
  if (error instanceof ZodError) {
    const issues = error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
    const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return answer(new AppError("invalid_request", { message: `The request is not valid: ${summary}` }), issues);
  }
  logger.error({ err: describeUnhandled(error) }, "unhandled error");
  return answer(new AppError("internal_error"));
}

/**
 * What the log says of an unexpected error: its name and message, and its cause's. A failed query's message
 * ends with the values it was sent ("params: …": an API key's hash and prefix, a token's seal), which the log
 * never holds: only the statement and the database's own reason are kept. Exported (@internal) for its test.
 */
export function describeUnhandled(error: unknown): { name: string; message: string; cause?: { code?: string; message: string } } | string {
  if (!(error instanceof Error)) return typeof error === "string" ? error.slice(0, 200) : "unknown error";
  const message = error.message.replace(/\nparams: [\s\S]*$/, "").slice(0, 500);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  return {
    name: error.name,
    message,
    ...(cause ? { cause: { ...(typeof code === "string" ? { code } : {}), message: cause.message.slice(0, 300) } } : {}),
  };
}

function answer(error: AppError, issues?: ErrorBody["issues"]): Response {
  noteRefusal(error.code, error.status);
  const body: ErrorBody = { ok: false, error: error.code, message: error.message, ...(issues ? { issues } : {}) };
  return Response.json(body, { status: error.status, headers: error.headers });
}
