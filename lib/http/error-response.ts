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
  logger.error({ err: error instanceof Error ? { name: error.name, message: error.message } : String(error) }, "unhandled error");
  return answer(new AppError("internal_error"));
}

function answer(error: AppError, issues?: ErrorBody["issues"]): Response {
  noteRefusal(error.code, error.status);
  const body: ErrorBody = { ok: false, error: error.code, message: error.message, ...(issues ? { issues } : {}) };
  return Response.json(body, { status: error.status, headers: error.headers });
}
