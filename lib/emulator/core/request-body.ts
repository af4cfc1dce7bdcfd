/**
 * Every body the emulator reads goes through here, whichever server carries it (the console's mount, the
 * standalone server, a test's `new Request`): read chunk by chunk up to a cap that depends on the surface,
 * never held whole past it, and answered 413 beyond it.
 *
 * It is read in full before anything acts on the request. The platform acts on a request once it has
 * arrived, whether or not anyone reads the answer (a refresh whose answer is lost has still spent its
 * refresh token); a server cancels a request's body when its caller goes away (Next.js does), so the
 * handlers work on a copy of the body that nobody can cancel.
 */
import { PageError, PlainTextError, WebApiError } from "./errors";

/** The largest body each surface takes, in bytes. */
export interface BodyLimits {
  /** Web API methods and the OAuth pages. 40,000 CJK characters form-encoded are about 360 KB, and a text past 40,000 characters must still arrive to be refused the platform's way. */
  webApi: number;
  /** The admin surface: manifests and small settings. */
  admin: number;
  /** Incoming webhooks: one message's JSON. */
  webhooks: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { webApi: 1024 * 1024, admin: 64 * 1024, webhooks: 40 * 1024 };

export type Surface = "webApi" | "oauth" | "admin" | "webhooks";

/** Which surface a path (relative to the base path) belongs to, as far as its body cap goes. */
export function surfaceOf(path: string): Surface {
  const first = path.split("/").find((segment) => segment !== "");
  if (first === "admin") return "admin";
  if (first === "services") return "webhooks";
  // The sign-in page's form is a page a person sees, as the install's is.
  if (first === "oauth" || first === "openid") return "oauth";
  return "webApi";
}

function capOf(surface: Surface, limits: BodyLimits): number {
  return surface === "oauth" ? limits.webApi : limits[surface];
}

/** The refusal of an oversized body, in the surface's own wire shape. */
function tooLarge(surface: Surface, cap: number): Error {
  if (surface === "webhooks") return new PlainTextError(413, "payload_too_large");
  if (surface === "oauth") return new PageError(413, "Request too large", `The request's body is larger than the ${cap} bytes this page takes.`);
  return new WebApiError("payload_too_large", { message: `The request body is larger than ${cap} bytes.` }, { status: 413 });
}

/** What the emulator answers when the body stops arriving half-way (the caller went away: nobody reads it). */
function aborted(): Error {
  return new WebApiError("request_aborted", { message: "The request body did not arrive in full." }, { status: 400 });
}

/**
 * The request with its body read, up to the surface's cap: a new Request over the bytes, without the
 * caller's signal. A declared Content-Length past the cap is refused before a byte is read.
 */
export async function detachBody(request: Request, path: string, limits: BodyLimits): Promise<Request> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return request;
  const surface = surfaceOf(path);
  const cap = capOf(surface, limits);
  const declared = Number(request.headers.get("content-length") ?? "");
  const reader = request.body.getReader();
  if (Number.isFinite(declared) && declared > cap) {
    await reader.cancel().catch(() => {});
    throw tooLarge(surface, cap);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw aborted();
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      throw tooLarge(surface, cap);
    }
    chunks.push(next.value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}
