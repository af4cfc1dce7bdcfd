import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countCookies, MAX_COOKIES } from "@/lib/ops/cookie-bound";
import { metrics } from "@/lib/metrics";
import { countRefusals } from "@/lib/ops/refusal-metrics";
import { guardRequests } from "@/lib/ops/request-guard";

/**
 * Issue 37 items 2 and 7, in the Node server's own request listener (lib/ops/request-guard.ts): real HTTP
 * servers of this process behind the guard, as Next.js's is. A request with more cookies than a browser keeps
 * answers 431 without reaching the server's listener (where Next.js would spend seconds on them); a server
 * listening on every interface while HOST says loopback answers 503 saying why, from its first request on.
 * tests/e2e/hosted-ops.spec.ts runs both against a built console.
 */
const saved = { ...process.env };
const servers: Server[] = [];
let reached = 0;

beforeAll(() => {
  // HOST unset: the configuration says 127.0.0.1, this machine only.
  delete process.env.HOST;
  delete process.env.APP_ORIGIN;
  delete process.env.ALLOWED_HOSTS;
  Object.assign(process.env, { SESSION_PASSWORD: "p".repeat(32), LOG_LEVEL: "silent" });
  guardRequests();
  countRefusals();
});
afterAll(() => {
  for (const server of servers) server.close();
  process.env = saved;
});

/** A server whose own listener answers 200 "reached", listening on `host`; resolves with its port. */
function serve(host: string): Promise<number> {
  const server = createServer((_, response) => {
    reached++;
    response.end("reached");
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/** A real request (node:http, so the Cookie header goes as written), answered with status, type and body. */
function get(port: number, headers: Record<string, string>): Promise<{ status: number; type: string; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: "127.0.0.1", port, path: "/api/health", headers, agent: false }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"] ?? "", body, ms: performance.now() - started }),
      );
    });
    sent.on("error", reject);
    sent.end();
  });
}

const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/**
 * `count` empty cookies of distinct two-character names, ";"-separated: 2,000 are 8 KB, within nginx's default
 * header size. Distinct, because Next.js keeps one cookie per name: what cost it 1.3 s of CPU (issue 37 item 2).
 */
const emptyCookies = (count: number) =>
  Array.from({ length: count }, (_, i) => `${NAME_CHARS[Math.floor(i / NAME_CHARS.length)]}${NAME_CHARS[i % NAME_CHARS.length]}=`).join(";");
const refusals = async (reason: string) => (await metrics().refusals.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

describe("the cookie bound", () => {
  it("counts a Cookie header's cookies in one pass, empty ones included", () => {
    expect(countCookies(undefined)).toBe(0);
    expect(countCookies("")).toBe(0);
    expect(countCookies("a=1")).toBe(1);
    expect(countCookies("a=1; b=2;c=3")).toBe(3);
    expect(countCookies(emptyCookies(2000))).toBe(2000);
    expect(countCookies("; ".repeat(1999))).toBe(2000);
    // Linear: 100,000 cookies (400 KB) counted in a few milliseconds, where a cost growing with their square would take minutes.
    const header = "x=; ".repeat(99_999) + "x=";
    const started = performance.now();
    expect(countCookies(header)).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it("answers 431 to 2,000 empty cookies (8 KB) before the server's own listener, JSON to a client and a page to a browser", async () => {
    const port = await serve("127.0.0.1");
    const before = { reached, counted: await refusals("cookies") };
    const api = await get(port, { cookie: emptyCookies(2000) });
    expect(api.status).toBe(431);
    expect(api.type).toBe("application/json");
    expect(JSON.parse(api.body)).toMatchObject({ ok: false, error: "too_many_cookies", message: expect.stringContaining(`at most ${MAX_COOKIES}`) });
    const browser = await get(port, { cookie: emptyCookies(2000), accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(browser.status).toBe(431);
    expect(browser.type).toMatch(/^text\/html/);
    expect(browser.body).toContain("too many cookies");
    expect(browser.body).toContain("too_many_cookies");
    expect(reached).toBe(before.reached);
    expect(await refusals("cookies")).toBe(before.counted + 2);
  });

  it("lets through every count a browser can send: the bound, and a session's handful", async () => {
    const port = await serve("127.0.0.1");
    expect(await get(port, { cookie: emptyCookies(MAX_COOKIES) })).toMatchObject({ status: 200, body: "reached" });
    expect(await get(port, { cookie: "sb_session=abc; sb_signin=def" })).toMatchObject({ status: 200, body: "reached" });
    expect(await get(port, {})).toMatchObject({ status: 200, body: "reached" });
    expect((await get(port, { cookie: emptyCookies(MAX_COOKIES + 1) })).status).toBe(431);
  });
});

describe("the listening address", () => {
  it("serves nothing from the first request on when the server listens on every interface while HOST says this machine only", async () => {
    const port = await serve("0.0.0.0");
    const before = { reached, counted: await refusals("exposure") };
    for (let i = 0; i < 2; i++) {
      const api = await get(port, {});
      expect(api.status).toBe(503);
      const body = JSON.parse(api.body) as { error: string; message: string };
      expect(body.error).toBe("listening_exposed");
      expect(body.message).toContain("every interface (0.0.0.0)");
      expect(body.message).toContain("HOST is 127.0.0.1");
      expect(body.message).toContain("next start -H 127.0.0.1");
    }
    const page = await get(port, { accept: "text/html" });
    expect(page.status).toBe(503);
    expect(page.body).toContain("This console is not serving");
    expect(reached).toBe(before.reached);
    expect(await refusals("exposure")).toBe(before.counted + 3);
  });

  it("serves a server on loopback, as HOST says", async () => {
    const port = await serve("127.0.0.1");
    expect(await get(port, {})).toMatchObject({ status: 200, body: "reached" });
  });
});
