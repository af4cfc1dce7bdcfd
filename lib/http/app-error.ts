import { brand, hasBrand } from "@/lib/brand";
import { CONSOLE_ERRORS, type ConsoleErrorCode } from "./error-codes";

/** What a throw site may add to its code's row in CONSOLE_ERRORS: a message with specifics, response headers. */
export interface ErrorDetails {
  message?: string;
  /** Extra response headers (for example Retry-After on a 429). */
  headers?: Record<string, string>;
}

/** An upstream's own error code, passed on as it came, with the status the console answers it with. */
export interface RelayedCode {
  relayed: string;
  status: number;
}

/**
 * The console's one error type: a machine-readable code, the HTTP status it answers with, and a message a
 * person can act on. Messages never carry a token, a client secret or a webhook URL. Made from one of the
 * console's codes (its status and default message come from CONSOLE_ERRORS), or from an upstream's code that
 * the console relays as it came (PlatformError, the emulator admin surface's answers).
 */
export class AppError extends Error {
  /** The code the answer names: a ConsoleErrorCode, or the upstream's own when `relayed`. */
  readonly code: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly relayed: boolean;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "AppError");
  }

  constructor(code: ConsoleErrorCode, details?: ErrorDetails);
  constructor(relayed: RelayedCode, details: ErrorDetails & { message: string });
  constructor(code: ConsoleErrorCode | RelayedCode, given: ErrorDetails = {}) {
    const row = typeof code === "string" ? CONSOLE_ERRORS[code] : { status: code.status, message: "" };
    super(given.message ?? row.message);
    this.name = "AppError";
    this.code = typeof code === "string" ? code : code.relayed;
    this.status = row.status;
    this.headers = given.headers ?? {};
    this.relayed = typeof code !== "string";
    brand(this, "AppError");
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The console's own error, with `code` when one is given: what control flow asks instead of comparing strings. */
export function isConsoleError<C extends ConsoleErrorCode>(error: unknown, code?: C): error is AppError & { code: C } {
  return error instanceof AppError && !error.relayed && (code === undefined || error.code === code);
}

/** An upstream's error the console relays, with this code when one is given (the platform's: isPlatformError). */
export function isRelayedError(error: unknown, code?: string): error is AppError {
  return error instanceof AppError && error.relayed && (code === undefined || error.code === code);
}
