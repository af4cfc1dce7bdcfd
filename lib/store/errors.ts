import "server-only";
import { brand, hasBrand } from "@/lib/brand";
import { AppError, isAppError } from "@/lib/http/app-error";

/** putInstallation's `expectVersion` did not match: someone wrote the installation since it was read. */
export class VersionConflictError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "VersionConflictError");
  }

  constructor(
    readonly installationId: string,
    readonly expected: number,
    readonly actual: number | undefined,
  ) {
    super(`installation ${installationId} is at version ${actual ?? "(none)"}, not ${expected}: read it again and retry`);
    this.name = "VersionConflictError";
    brand(this, "VersionConflictError");
  }
}

/**
 * A sealed value this server cannot open: sealed with a key it does not have, or changed in the database.
 * Answers 503 store_unavailable saying which key; a list shows the installation that holds it as unreadable
 * rather than failing whole.
 */
export class UnreadableSecretError extends AppError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "UnreadableSecretError");
  }

  constructor(
    readonly keyId: string,
    message: string,
    /** The installation that holds it and the version it is at, when it is an installation's: a reinstall writes over it. */
    readonly installation?: { id: string; version: number },
  ) {
    super("store_unavailable", { message });
    this.name = "UnreadableSecretError";
    brand(this, "UnreadableSecretError");
  }
}

/** withRefreshLock waited as long as it was allowed to: the caller answers 503 refresh_in_progress. */
export class RefreshLockTimeoutError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "RefreshLockTimeoutError");
  }

  constructor(
    readonly key: string,
    readonly waitedMs: number,
  ) {
    super(`the refresh lock ${key} was still held after ${waitedMs} ms`);
    this.name = "RefreshLockTimeoutError";
    brand(this, "RefreshLockTimeoutError");
  }
}

/** The SQLSTATE classes and codes, and the socket errors, that mean the database is gone (not a bad query). */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end|PGlite is closed|not connected/i;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** Whether an error says the database cannot be reached (rather than that a query was wrong). */
export function isConnectionError(error: unknown): boolean {
  return causes(error).some((e) => {
    if (!(e instanceof Error)) return false;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
    return CONNECTION_MESSAGES.test(e.message);
  });
}

/**
 * The short reason of a connection error: the cause that says the connection failed (its code and message),
 * never the query that met it (a query layer's "Failed query: <SQL> params: …" wraps it), nothing of the URL
 * (its password), at most 200 characters.
 */
export function connectionReason(error: unknown): string {
  const e = causes(error).find((x) => {
    if (!(x instanceof Error)) return false;
    const code = (x as { code?: unknown }).code;
    return (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) || CONNECTION_MESSAGES.test(x.message);
  });
  if (!(e instanceof Error)) return "the connection failed";
  const code = (e as { code?: unknown }).code;
  const message = e.message.startsWith("Failed query") ? "the connection failed" : e.message.replace(/\b[a-z]+:\/\/\S+/gi, "(url)").slice(0, 200);
  return typeof code === "string" ? `${code}: ${message}` : message;
}

/** A lost or unreachable database as the console answers it: 503 store_unavailable, saying what to fix. */
export function storeUnavailable(where: string, error: unknown): AppError {
  return new AppError("store_unavailable", {
    message: `The console's store (${where}) is unavailable (${connectionReason(error)}), so nothing was changed. ${
      where.startsWith("PostgreSQL")
        ? "Check that DATABASE_URL names a running PostgreSQL this server can reach"
        : "Check that DATA_DIR is readable and writable"
    }, then try again.`,
  });
}

/** Maps a database error to 503 store_unavailable when it is a lost connection; any other passes through. */
export function mapStoreError(where: string, error: unknown): unknown {
  if (isAppError(error) || error instanceof VersionConflictError || error instanceof RefreshLockTimeoutError) return error;
  return isConnectionError(error) ? storeUnavailable(where, error) : error;
}
