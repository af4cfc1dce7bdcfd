import "server-only";
import { getConfig } from "@/lib/config";
import { findEmbeddedEmulator } from "@/lib/embedded-emulator";
import { AppError } from "@/lib/http/app-error";

/**
 * How the console's server reaches the emulator's admin surface (the webhook and event pages, app
 * settings). The embedded emulator lives in this process (instrumentation-node.ts makes it at start), so
 * the call is a function call, with the admin token as its credential rather than a made-up Origin. An
 * emulator served elsewhere (the tests' own, over HTTP) is called over HTTP with the same token
 * (EMULATOR_ADMIN_TOKEN, which it must share).
 */

export interface AdminAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface AdminCall {
  /** The emulator's base URL ({origin}/emulator). */
  baseUrl: string;
  /** A JSON body makes the call a POST; without one it is a GET. */
  body?: unknown;
  timeoutMs: number;
}

/** One call to the admin surface; any answer is returned, only no answer throws (emulator_unreachable). */
export async function callEmulatorAdmin(path: string, call: AdminCall): Promise<AdminAnswer> {
  const config = getConfig();
  // The embedded emulator answers only for itself: a standalone one (PLATFORM_BASE_URL) is called over HTTP.
  const embedded = config.upstream.kind === "emulator" ? findEmbeddedEmulator() : undefined;
  const headers = new Headers();
  if (embedded || config.emulator.adminTokenConfigured) headers.set("authorization", `Bearer ${config.emulator.adminToken}`);
  // Over HTTP it also says the emulator's own origin, as a script on this machine does: a standalone
  // emulator on loopback without a token of its own takes that, one with a token takes only the token.
  if (!embedded) headers.set("origin", new URL(call.baseUrl).origin);
  if (call.body !== undefined) headers.set("content-type", "application/json");
  const init: RequestInit = {
    method: call.body === undefined ? "GET" : "POST",
    headers,
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
  };
  const url = `${call.baseUrl}/admin/${path}`;
  let response: Response;
  try {
    response = embedded
      ? await embedded.fetch(new Request(url, init))
      : await fetch(url, { ...init, cache: "no-store", redirect: "manual", signal: AbortSignal.timeout(call.timeoutMs) });
  } catch {
    throw new AppError("emulator_unreachable");
  }
  if (response.status === 401) {
    throw new AppError("emulator_admin_refused", {
      message:
        "The emulator's admin surface refused the console's credential: give the console and the emulator the same EMULATOR_ADMIN_TOKEN, or none to either on this machine.",
    });
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, body };
}
