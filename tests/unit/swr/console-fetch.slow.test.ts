import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { CONSOLE_ERRORS } from "@/lib/http/error-codes";
import { toErrorResponse } from "@/lib/http/error-response";
import { sendApiCall } from "@/lib/swr/api-call";
import { BROWSER_ERRORS } from "@/lib/swr/browser-errors";
import { ConsoleRequestError, consoleFetch, fetchJson } from "@/lib/swr/console-fetch";

/**
 * The console's pages' one fetch (lib/swr/console-fetch.ts) against a real HTTP server: what a person is
 * shown when a route answers with its error body, when something else answers (a proxy's page), when the
 * console cannot be reached, and what the explorer shows of an answer (its size in bytes, a token refresh).
 */

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** A Web Response, as a route handler returns it, written to a node:http response. */
async function writeResponse(from: Response, to: ServerResponse): Promise<void> {
  to.writeHead(from.status, Object.fromEntries(from.headers));
  to.end(Buffer.from(await from.arrayBuffer()));
}

const routes = new Map<string, Handler>();
const seen: IncomingMessage[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request);
    const route = routes.get(new URL(request.url ?? "/", "http://x").pathname);
    if (route) void route(request, response);
    else void writeResponse(new Response("<html>Not found</html>", { status: 404, headers: { "content-type": "text/html" } }), response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A URL on a port nothing listens on: a server started and closed again. */
async function unreachableOrigin(): Promise<string> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** What the explorer's Send does, aimed at the test's server instead of the page's origin. */
const sendTo = (base: string) => (path: string, init?: RequestInit) => consoleFetch(`${base}${path}`, init);

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );

describe("a console route's JSON, read by a page (fetchJson)", () => {
  it("sends the console's request header and asks for JSON, bypassing the HTTP cache", async () => {
    routes.set("/api/headers", (_request, response) => void writeResponse(Response.json({ ok: true }), response));
    seen.length = 0;
    expect(await fetchJson(`${origin}/api/headers`)).toEqual({ ok: true });
    expect(seen[0]?.headers).toMatchObject({ "x-switchboard-request": "1", accept: "application/json" });
    await consoleFetch(`${origin}/api/headers`, { headers: { accept: "application/x-ndjson" } });
    expect(seen[1]?.headers).toMatchObject({ "x-switchboard-request": "1", accept: "application/x-ndjson" });
  });

  it("throws the route's own code and message when it answers with its error body, as toErrorResponse writes it", async () => {
    routes.set("/api/reinstall", (_request, response) => void writeResponse(toErrorResponse(new AppError("needs_reinstall")), response));
    const error = await rejection(fetchJson(`${origin}/api/reinstall`));
    expect(error).toBeInstanceOf(ConsoleRequestError);
    expect(error).toMatchObject({ status: 409, code: "needs_reinstall", message: CONSOLE_ERRORS.needs_reinstall.message });

    // A body that failed its schema says which paths failed: still the console's error body.
    routes.set("/api/invalid", (_request, response) => {
      const parsed = z.object({ name: z.string() }).safeParse({ name: 7 });
      void writeResponse(toErrorResponse(parsed.error), response);
    });
    expect(await rejection(fetchJson(`${origin}/api/invalid`))).toMatchObject({
      status: 422,
      code: "invalid_request",
      message: expect.stringContaining("name"),
    });
  });

  it("throws http_error with the status when something other than the console answers an error (a proxy's page)", async () => {
    routes.set("/api/proxy", (_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html><body>Bad gateway</body></html>");
    });
    expect(await rejection(fetchJson(`${origin}/api/proxy`))).toMatchObject({ status: 502, code: "http_error", message: BROWSER_ERRORS.http_error(502) });
    // JSON that is not the console's error body is no more the route's word than a page is.
    routes.set("/api/other-json", (_request, response) => void writeResponse(Response.json({ detail: "nope" }, { status: 500 }), response));
    expect(await rejection(fetchJson(`${origin}/api/other-json`))).toMatchObject({ status: 500, code: "http_error" });
  });

  it("throws not_json, with the answer's start, when a 2xx answer is not JSON", async () => {
    routes.set("/api/html", (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>a sign-in page</html>");
    });
    const error = await rejection(fetchJson(`${origin}/api/html`));
    expect(error).toMatchObject({ status: 200, code: "not_json" });
    expect((error as Error).message).toContain("<html>a sign-in page</html>");
  });

  it("throws network_error with status 0 when the console cannot be reached", async () => {
    const error = await rejection(fetchJson(`${await unreachableOrigin()}/api/session`));
    expect(error).toBeInstanceOf(ConsoleRequestError);
    expect(error).toMatchObject({ status: 0, code: "network_error", message: expect.stringMatching(/^The connection to the console failed \(.+\)\.$/) });
  });

  it("throws network_error when the connection breaks while the answer comes", async () => {
    routes.set("/api/cut", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('{"items":[');
      setTimeout(() => response.destroy(), 20);
    });
    expect(await rejection(fetchJson(`${origin}/api/cut`))).toMatchObject({ code: "network_error" });
  });

  it("passes a caller's abort on as the AbortError it is, not as a failure of the console", async () => {
    // An answer that never comes.
    routes.set("/api/slow", () => {});
    const abort = new AbortController();
    const pending = rejection(consoleFetch(`${origin}/api/slow`, { signal: abort.signal }));
    setTimeout(() => abort.abort(), 20);
    const error = await pending;
    expect(error).not.toBeInstanceOf(ConsoleRequestError);
    expect(error).toMatchObject({ name: "AbortError" });
  });
});

describe("the explorer's call (sendApiCall)", () => {
  /** The workspace's names are not all ASCII: one character is 1 to 4 bytes, and 2 UTF-16 units past U+FFFF. */
  const NAMES = { ok: true, members: [{ name: "Zoë Ångström" }, { name: "渡辺 さくら" }, { name: "Ολυμπία 🎉" }] };
  const call = { method: "users.list", httpMethod: "GET", query: "installation=i1&token=bot" } as const;

  it("reports the size of a non-ASCII answer in bytes, as it came over the wire, not in UTF-16 units", async () => {
    const text = JSON.stringify(NAMES);
    routes.set("/api/call/users.list", (_request, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      response.end(text);
    });
    const result = await sendApiCall(call, sendTo(origin));
    expect(result.body).toEqual(NAMES);
    expect(result.bytes).toBe(Buffer.byteLength(text, "utf8"));
    expect(result.bytes).not.toBe(text.length);
  });

  it("shows a refreshed token when the console says 1, and only then (it sends 1 or 0)", async () => {
    for (const [sent, refreshed] of [
      ["1", true],
      ["0", false],
      ["true", false],
    ] as const) {
      routes.set(
        "/api/call/auth.test",
        (_request, response) => void writeResponse(Response.json({ ok: true }, { headers: { "x-token-refreshed": sent } }), response),
      );
      expect((await sendApiCall({ ...call, method: "auth.test" }, sendTo(origin))).refreshed, `x-token-refreshed: ${sent}`).toBe(refreshed);
    }
  });

  it("shows the console's error body as the answer, with its status", async () => {
    routes.set("/api/call/chat.postMessage", (_request, response) => void writeResponse(toErrorResponse(new AppError("needs_reinstall")), response));
    const result = await sendApiCall({ ...call, method: "chat.postMessage" }, sendTo(origin));
    expect(result).toMatchObject({ status: 409, body: { ok: false, error: "needs_reinstall", message: CONSOLE_ERRORS.needs_reinstall.message } });
  });

  it("shows an answer that is not JSON as a not_json body with what came, and its status", async () => {
    routes.set("/api/call/team.info", (_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html>Bad gateway</html>");
    });
    const result = await sendApiCall({ ...call, method: "team.info" }, sendTo(origin));
    expect(result).toMatchObject({
      status: 502,
      bytes: 24,
      body: { ok: false, error: "not_json", message: expect.stringContaining("<html>Bad gateway</html>") },
    });
  });

  it("shows a console that cannot be reached as a failed call with status 0 (network_error), not a thrown error", async () => {
    const result = await sendApiCall(call, sendTo(await unreachableOrigin()));
    expect(result).toMatchObject({ method: "users.list", status: 0, bytes: 0, refreshed: false, body: { ok: false, error: "network_error" } });
  });
});

describe("the codes the browser names itself", () => {
  it("are none of the console's own, so a route's word is never mistaken for the browser's", () => {
    expect(Object.keys(BROWSER_ERRORS).filter((code) => Object.hasOwn(CONSOLE_ERRORS, code))).toEqual([]);
  });
});
