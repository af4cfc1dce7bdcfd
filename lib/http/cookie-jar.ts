import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { logger } from "@/lib/log";

export interface CookieOptions {
  maxAgeS: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: "lax" | "strict";
  path?: string;
}

/**
 * The cookies of the request being served. Session code reads and writes through this interface, so it
 * runs the same inside Next's request scope, inside handleRoute, and in unit tests with a plain Request.
 */
export interface CookieJar {
  get(name: string): string | undefined;
  /**
   * Every copy of the cookie the request carried, in the browser's order. A browser sends two cookies of
   * one name when another path or a sibling subdomain set one: only the caller can tell which is real.
   */
  getAll(name: string): string[];
  /** Every cookie whose name starts with `prefix`. */
  list(prefix: string): { name: string; value: string }[];
  set(name: string, value: string, options: CookieOptions): void;
  /** Clears the cookie; `options` must match how it was set (a `__Host-` cookie is only cleared by a Secure one). */
  delete(name: string, options?: Omit<CookieOptions, "maxAgeS">): void;
  /**
   * Runs `finish` once, just before the response's Set-Cookie headers are made (a later call with the same
   * key replaces an earlier one): a write can then be brought up to date with what other requests did
   * while this one ran. Jars that cannot delay their writes run it at once.
   */
  beforeSend(key: string, finish: () => Promise<void>): Promise<void>;
}

function parseCookieHeader(header: string | null): Map<string, string[]> {
  const cookies = new Map<string, string[]>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not valid percent-encoding is kept as it came.
    }
    const copies = cookies.get(name);
    if (copies) copies.push(value);
    else cookies.set(name, [value]);
  }
  return cookies;
}

export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? "/"}`, `Max-Age=${Math.max(0, Math.floor(options.maxAgeS))}`];
  if (options.maxAgeS <= 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (options.httpOnly ?? true) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  parts.push(`SameSite=${options.sameSite === "strict" ? "Strict" : "Lax"}`);
  return parts.join("; ");
}

/**
 * A jar over one Request's Cookie header that remembers what was set or deleted; `applyTo` adds the
 * Set-Cookie headers to the response. Reads see the writes made earlier in the same request.
 */
export class RequestCookieJar implements CookieJar {
  private readonly current: Map<string, string[]>;
  private readonly pending = new Map<string, string>();
  private readonly finishers = new Map<string, () => Promise<void>>();

  constructor(request: Request) {
    this.current = parseCookieHeader(request.headers.get("cookie"));
  }

  get(name: string) {
    return this.current.get(name)?.[0];
  }

  getAll(name: string) {
    return [...(this.current.get(name) ?? [])];
  }

  list(prefix: string) {
    return [...this.current].filter(([name]) => name.startsWith(prefix)).map(([name, values]) => ({ name, value: values[0]! }));
  }

  set(name: string, value: string, options: CookieOptions) {
    this.current.set(name, [value]);
    this.pending.set(name, serializeCookie(name, value, options));
  }

  delete(name: string, options: Omit<CookieOptions, "maxAgeS"> = {}) {
    this.current.delete(name);
    this.pending.set(name, serializeCookie(name, "", { ...options, maxAgeS: 0 }));
  }

  async beforeSend(key: string, finish: () => Promise<void>) {
    this.finishers.set(key, finish);
  }

  /** Runs the beforeSend finishers (each once); call before applyTo. A finisher that fails leaves its earlier write. */
  async settle(): Promise<void> {
    const finishers = [...this.finishers.values()];
    this.finishers.clear();
    for (const finish of finishers) {
      try {
        await finish();
      } catch (error) {
        // The write made during the request stands: it was up to date when it was made.
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          "a cookie could not be brought up to date before the response: the request's own write stands",
        );
      }
    }
  }

  /** The Set-Cookie header values this request produced. */
  setCookieHeaders(): string[] {
    return [...this.pending.values()];
  }

  applyTo(response: Response): Response {
    if (this.pending.size === 0) return response;
    // Responses such as Response.redirect() have immutable headers: copy into a fresh one.
    const headers = new Headers(response.headers);
    for (const value of this.pending.values()) headers.append("set-cookie", value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

const scope = new AsyncLocalStorage<CookieJar>();

/** Runs `fn` with `jar` as the current request's cookies. */
export function runWithCookieJar<T>(jar: CookieJar, fn: () => T): T {
  return scope.run(jar, fn);
}

/**
 * The current request's cookies: the jar handleRoute (or a test) set up, or else Next's request-scoped
 * cookies() (server components can read them; route handlers and server actions can also write).
 */
export async function getCookieJar(): Promise<CookieJar> {
  const jar = scope.getStore();
  if (jar) return jar;
  const { cookies } = await import("next/headers");
  const store = await cookies();
  return {
    get: (name) => store.get(name)?.value,
    // Next's store keeps one copy per name.
    getAll: (name) => {
      const value = store.get(name)?.value;
      return value === undefined ? [] : [value];
    },
    list: (prefix) =>
      store
        .getAll()
        .filter((c) => c.name.startsWith(prefix))
        .map((c) => ({ name: c.name, value: c.value })),
    set: (name, value, options) =>
      store.set(name, value, {
        maxAge: options.maxAgeS,
        httpOnly: options.httpOnly ?? true,
        secure: options.secure ?? false,
        sameSite: options.sameSite ?? "lax",
        path: options.path ?? "/",
      }),
    delete: (name, options) =>
      store.set(name, "", {
        maxAge: 0,
        httpOnly: options?.httpOnly ?? true,
        secure: options?.secure ?? false,
        sameSite: options?.sameSite ?? "lax",
        path: options?.path ?? "/",
      }),
    beforeSend: (_key, finish) => finish(),
  };
}
