/**
 * The console's one error type: a machine-readable code, the HTTP status it answers with, and a message a
 * person can act on. Messages never carry a token, a client secret or a webhook URL.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra response headers (for example Retry-After on a 429). */
  readonly headers: Record<string, string>;

  constructor(code: string, status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = status;
    this.headers = headers;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
