import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * The platform's answer headers through GET /api/call, over the wire: the emulator behind a front server
 * that, like a load balancer or the platform's edge, adds headers of its own to every Web API answer,
 * among them some that must never reach the browser.
 */

interface Front {
  server: Server;
  origin: string;
  /** Where requests go: the emulator's origin, known once it has started. */
  target: string;
  /** The body of the last Web API answer the front passed back, as it came. */
  lastApiBody?: Buffer;
  /** The last Web API request the front passed on, as it came. */
  lastApiRequest?: { method: string; contentType: string | null; body: string };
  /** Changes a Web API answer on its way back (status, headers, body), for one test. */
  rewrite?: (answer: { status: number; headers: Record<string, string | string[]>; body: Buffer }) => void;
}

const EDGE_HEADERS = {
  "set-cookie": ["edge_session=s3cr3t-edge-session; Path=/; HttpOnly", "edge_region=eu; Path=/"],
  "x-secret": "s3cr3t-made-up",
  server: "front/1.0",
  "x-slack-req-id": "req-0123456789abcdef",
  "x-slack-backend": "r",
  "x-ratelimit-remaining": "99",
};

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined;
}

async function startFront(): Promise<Front> {
  const front: Front = { server: createServer(), origin: "", target: "" };
  front.server.on("request", (req, res) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string" && name !== "host") headers.set(name, value);
      const body = await readBody(req);
      if (req.url?.startsWith("/emulator/api/")) {
        front.lastApiRequest = { method: req.method ?? "", contentType: headers.get("content-type"), body: body ? Buffer.from(body).toString() : "" };
      }
      const upstream = await fetch(`${front.target}${req.url ?? "/"}`, { method: req.method, headers, body, redirect: "manual" });
      const answer = { status: upstream.status, headers: {} as Record<string, string | string[]>, body: Buffer.from(await upstream.arrayBuffer()) };
      // fetch has already decoded the body: its encoding and length no longer apply.
      upstream.headers.forEach((value, name) => {
        if (name !== "content-encoding" && name !== "content-length" && name !== "set-cookie") answer.headers[name] = value;
      });
      if (req.url?.startsWith("/emulator/api/")) {
        Object.assign(answer.headers, EDGE_HEADERS);
        front.rewrite?.(answer);
        front.lastApiBody = answer.body;
      }
      res.writeHead(answer.status, answer.headers).end(answer.body);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => front.server.listen(0, "127.0.0.1", resolve));
  front.origin = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
  return front;
}

let front: Front;
let testConsole: TestConsole;
let browser: TestBrowser;
let installation: string;

beforeAll(async () => {
  front = await startFront();
  // The console knows only the front: its upstream is {front}/emulator.
  testConsole = await startTestConsole({ APP_ORIGIN: front.origin });
  front.target = testConsole.origin;
  browser = new TestBrowser(front.origin);
  expect((await installIn(browser)).status).toBe(303);
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: Array<{ id: string }> };
  installation = session.installations[0]!.id;
});
afterAll(async () => {
  await testConsole.close();
  await new Promise((resolve) => front.server.close(resolve));
});
beforeEach(() => {
  front.rewrite = undefined;
});

const call = (method: string, query = "") =>
  browser.send(callGet, `/api/call/${method}?installation=${installation}&token=bot${query}`, { params: { method } });

const forwardedNames = (response: Response) => (response.headers.get("x-upstream-headers") ?? "").split(",").filter(Boolean);

describe("GET /api/call/{method}: the platform's answer headers", () => {
  it("passes on the token's scopes and the scopes the method accepts, and names what it passed on", async () => {
    const response = await call("users.list", "&limit=2");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-oauth-scopes")?.split(",")).toContain("users:read");
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("users:read");
    expect(forwardedNames(response)).toEqual(expect.arrayContaining(["content-type", "x-oauth-scopes", "x-accepted-oauth-scopes"]));
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("passes on the platform's request id, its other x-slack- headers and its rate-limit headers", async () => {
    const response = await call("auth.test");
    expect(response.headers.get("x-slack-req-id")).toBe("req-0123456789abcdef");
    expect(response.headers.get("x-slack-backend")).toBe("r");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(forwardedNames(response)).toEqual(expect.arrayContaining(["x-slack-req-id", "x-slack-backend", "x-ratelimit-remaining"]));
  });

  it("never passes on a header outside the allowlist: no upstream cookie, no made-up x-secret, no server", async () => {
    const response = await call("auth.test");
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(response.headers.get("x-secret")).toBeNull();
    expect(response.headers.get("server")).toBeNull();
    expect(forwardedNames(response)).not.toEqual(expect.arrayContaining(["set-cookie"]));
    expect(forwardedNames(response)).not.toEqual(expect.arrayContaining(["x-secret"]));
    expect(JSON.stringify([...response.headers])).not.toContain("s3cr3t");
  });

  it("passes the scope headers on with an error answer too, so missing_scope can say what the token has", async () => {
    // The app's bot scopes (its manifest's, which the install asks for) hold users:read but not files:read.
    const response = await call("files.list");
    expect(await response.json()).toMatchObject({ ok: false, error: "missing_scope", needed: "files:read" });
    expect(response.headers.get("x-oauth-scopes")?.split(",")).toContain("users:read");
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("files:read");
  });

  it("answers a large page byte for byte as the platform sent it", async () => {
    const response = await call("users.list", "&limit=200");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.equals(front.lastApiBody!)).toBe(true);
  });

  it("keeps its own JSON content type when the platform labels its JSON otherwise", async () => {
    front.rewrite = (answer) => {
      answer.headers["content-type"] = "text/html; charset=utf-8";
    };
    const response = await call("auth.test");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(forwardedNames(response)).not.toContain("content-type");
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("passes a 429's Retry-After on in seconds, even when the platform gave a date", async () => {
    front.rewrite = (answer) => {
      answer.status = 429;
      answer.headers["retry-after"] = new Date(Date.now() + 30_000).toUTCString();
      answer.body = Buffer.from('{"ok":false,"error":"ratelimited"}');
    };
    const response = await call("auth.test");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(28);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(31);
    expect(forwardedNames(response)).toContain("retry-after");
    expect(((await response.json()) as { error: string }).error).toBe("ratelimited");
  });
});

describe("a POST through /api/call keeps its encoding on the way to the platform", () => {
  const post = (method: string, body: string, contentType: string) =>
    browser.send(callPost, `/api/call/${method}?installation=${installation}&token=bot`, {
      method: "POST",
      params: { method },
      headers: { "content-type": contentType },
      body,
    });

  it("sends a JSON body on as JSON, values keeping their types, without credentials", async () => {
    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "*built*" } }];
    const response = await post(
      "chat.postMessage",
      JSON.stringify({ channel: "general", text: "built", blocks, unfurl_links: false, token: "xoxb-not-mine" }),
      "application/json",
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { ok: boolean; message: { blocks: unknown } };
    expect(answer).toMatchObject({ ok: true, message: { blocks } });
    expect(front.lastApiRequest).toMatchObject({ method: "POST", contentType: "application/json; charset=utf-8" });
    expect(JSON.parse(front.lastApiRequest!.body)).toEqual({ channel: "general", text: "built", blocks, unfurl_links: false });
    const wire = JSON.parse(response.headers.get("x-upstream-request") ?? "{}") as { headers: Record<string, string>; body: string };
    expect(wire.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(wire.body)).toEqual({ channel: "general", text: "built", blocks, unfurl_links: false });
  });

  it("sends a form body on as a form body", async () => {
    const response = await post(
      "chat.postMessage",
      new URLSearchParams({ channel: "general", text: "form", token: "xoxb-not-mine" }).toString(),
      "application/x-www-form-urlencoded",
    );
    expect(response.status).toBe(200);
    expect(front.lastApiRequest?.contentType).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(front.lastApiRequest!.body))).toEqual({ channel: "general", text: "form" });
  });

  it("refuses a JSON body that is not an object of parameters, before anything goes upstream", async () => {
    front.lastApiRequest = undefined;
    expect((await post("chat.postMessage", "{not json", "application/json")).status).toBe(400);
    expect(await (await post("chat.postMessage", "[1,2]", "application/json")).json()).toMatchObject({ error: "invalid_json" });
    expect(front.lastApiRequest).toBeUndefined();
  });
});
