import "server-only";
import type { z } from "zod";
import { getConfig } from "@/lib/config";
import { findEmbeddedEmulator } from "@/lib/embedded-emulator";
import { AppError } from "@/lib/http/app-error";
import { AdminOutcomeWire } from "./universal/schemas";

/**
 * How the console's server reaches the emulator's admin surface. The embedded emulator lives in this
 * process (instrumentation-node.ts makes it at start), so the call is a function call, with the admin
 * token as its credential rather than a made-up Origin. An emulator served elsewhere (a standalone one
 * through PLATFORM_BASE_URL, the tests' own) is called over HTTP with the same token (EMULATOR_ADMIN_TOKEN,
 * which it must share).
 */

/** Which emulator an admin call goes to, and how long it waits for the answer. */
export interface AdminTarget {
  /** The emulator's base URL ({origin}/emulator). */
  baseUrl: string;
  timeoutMs: number;
}

/** The emulator the console's upstream is; not_emulator when the upstream is the real platform. */
export function emulatorTarget(upstream: { kind: "emulator" | "platform"; baseUrl: string }, timeoutMs: number): AdminTarget {
  if (upstream.kind !== "emulator") throw new AppError("not_emulator");
  return { baseUrl: upstream.baseUrl, timeoutMs };
}

/** An answer: accepted (2xx and `ok: true`), with its body still to parse, or refused, with the emulator's code. */
export type AdminAnswer =
  { ok: true; path: string; body: unknown } | { ok: false; path: string; status: number; code: string; detail: string | undefined; body: unknown };

/**
 * One request to the admin surface as it is sent: to the embedded emulator a function call, to another one
 * over HTTP; with the admin token, and (over HTTP) the emulator's own origin. `signal` ends it early (a
 * stream the browser left); emulator_unreachable when no answer came.
 */
export async function fetchEmulatorAdmin(target: AdminTarget, path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const config = getConfig();
  // The embedded emulator answers only for itself: a standalone one (PLATFORM_BASE_URL) is called over HTTP.
  const embedded = config.upstream.kind === "emulator" ? findEmbeddedEmulator() : undefined;
  const headers = new Headers();
  if (embedded || config.emulator.adminTokenConfigured) headers.set("authorization", `Bearer ${config.emulator.adminToken}`);
  // Over HTTP it also says the emulator's own origin, as a script on this machine does: a standalone
  // emulator on loopback without a token of its own takes that, one with a token takes only the token.
  if (!embedded) headers.set("origin", new URL(target.baseUrl).origin);
  if (body !== undefined) headers.set("content-type", "application/json");
  const init: RequestInit = {
    method: body === undefined ? "GET" : "POST",
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  };
  const url = `${target.baseUrl}/admin/${path}`;
  // An answer is waited for timeoutMs; a stream (given `signal`) too, but then lasts as long as `signal` lets it.
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), target.timeoutMs);
  const ended = signal ? AbortSignal.any([signal, waiting.signal]) : AbortSignal.timeout(target.timeoutMs);
  try {
    return embedded
      ? await embedded.fetch(new Request(url, { ...init, ...(signal ? { signal } : {}) }))
      : await fetch(url, { ...init, cache: "no-store", redirect: "manual", signal: ended });
  } catch {
    throw new AppError("emulator_unreachable");
  } finally {
    clearTimeout(timer);
  }
}

/** One request to the admin surface; any answer is returned, only no answer (emulator_unreachable) or a refused credential throws. */
export async function askEmulatorAdmin(target: AdminTarget, path: string, body?: unknown): Promise<AdminAnswer> {
  const response = await fetchEmulatorAdmin(target, path, body);
  if (response.status === 401) {
    throw new AppError("emulator_admin_refused", {
      message:
        "The emulator's admin surface refused the console's credential: give the console and the emulator the same EMULATOR_ADMIN_TOKEN, or none to either on this machine.",
    });
  }
  const json: unknown = await response.json().catch(() => null);
  const outcome = AdminOutcomeWire.safeParse(json);
  if (response.ok && outcome.success && outcome.data.ok) return { ok: true, path, body: json };
  return {
    ok: false,
    path,
    status: response.status,
    code: outcome.data?.error ?? `http_${response.status}`,
    detail: outcome.data?.detail,
    body: json,
  };
}

/** A refusal, relayed with the emulator's own code: a 4xx as it came, anything else as 502. */
export function refusalError(answer: Extract<AdminAnswer, { ok: false }>): AppError {
  return new AppError(
    { relayed: answer.code, status: answer.status >= 400 && answer.status < 500 ? answer.status : 502 },
    { message: `The emulator's admin surface answered ${answer.path} with ${answer.code}.` },
  );
}

/** An answer's body, parsed; emulator_answer_malformed, saying which fields, when it is not of the shape the console reads. */
export function parseAnswer<S extends z.ZodType>(answer: { path: string; body: unknown }, schema: S): z.output<S> {
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "the answer"}: ${issue.message}`)
    .join("; ");
  throw new AppError("emulator_answer_malformed", {
    message: `The emulator's admin surface answered ${answer.path} in a shape this console does not read (${fields}): the two may be of different versions.`,
  });
}

/** One admin operation: its answer parsed, a refusal relayed (refusalError), a malformed answer said as such (parseAnswer). */
export async function callEmulatorAdmin<S extends z.ZodType>(target: AdminTarget, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
  const answer = await askEmulatorAdmin(target, path, body);
  if (!answer.ok) throw refusalError(answer);
  return parseAnswer(answer, schema);
}
