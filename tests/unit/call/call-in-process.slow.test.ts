import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { findInstallation } from "@/lib/installations/repository";
import { GET as sessionRoute } from "@/app/api/session/route";
import { handleEmbeddedEmulatorRequest } from "@/lib/embedded-emulator";
import { TestBrowser } from "../support/console";
import { installIn } from "../support/install";

/**
 * The console as `next start` runs it: the embedded emulator served at {APP_ORIGIN}/emulator by the same
 * process that calls it. Browsers and the install's consent page reach it over HTTP; /api/call calls it in
 * the process, and the emulator's faults and clock still apply to those calls.
 */

let server: Server;
let origin: string;
/** Web API requests that reached the emulator over HTTP, by path. */
const overHttp: string[] = [];

async function toRequest(req: IncomingMessage): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined;
  return new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, ...(body ? { body } : {}) });
}

async function serve(req: IncomingMessage, res: ServerResponse) {
  if (req.url?.startsWith("/emulator/api/")) overHttp.push(req.url.split("?")[0]!);
  const response = await handleEmbeddedEmulatorRequest(await toRequest(req));
  const bytes = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers).end(bytes);
}

let browser: TestBrowser;
let installation: string;

beforeAll(async () => {
  server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    DATA_DIR: "memory://",
    APP_ORIGIN: origin,
    REDIRECT_URI: `${origin}/oauth/callback`,
    EMULATOR_SEED: "in-process-tests",
    EMULATOR_USERS: "300",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    UPSTREAM_TIMEOUT_MS: "300",
    LOG_LEVEL: "silent",
  });
  delete process.env.PLATFORM_BASE_URL;
  delete process.env.CLIENT_ID;
  delete process.env.CLIENT_SECRET;
  browser = new TestBrowser(origin);
  expect((await installIn(browser)).status).toBe(303);
  const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: Array<{ id: string }> };
  installation = session.installations[0]!.id;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(async () => {
  await admin("faults", { latency_ms: 0, drop_rate: 0, error_rate: 0, methods: [] });
  overHttp.length = 0;
});

const admin = (path: string, body: unknown) =>
  fetch(`${origin}/emulator/admin/${path}`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify(body) });

const call = (method: string, query = "") =>
  browser.send(callGet, `/api/call/${method}?installation=${installation}&token=bot${query}`, { params: { method } });

describe("GET /api/call/{method} with the embedded emulator of this process", () => {
  it("calls it in the process, not over HTTP, with the same answer and headers", async () => {
    const response = await call("users.list", "&limit=200");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { ok: boolean; members: unknown[] };
    expect(body.ok).toBe(true);
    expect(body.members.length).toBeGreaterThan(100);
    expect(response.headers.get("x-accepted-oauth-scopes")).toBe("users:read");
    expect(JSON.parse(response.headers.get("x-upstream-request") ?? "{}")).toMatchObject({ url: `${origin}/emulator/api/users.list?limit=200` });
    expect(overHttp).toEqual([]);
  });

  it("still answers 504 after UPSTREAM_TIMEOUT_MS when the emulator is slow", async () => {
    await admin("faults", { latency_ms: 1500, methods: ["auth.test"] });
    const started = Date.now();
    const response = await call("auth.test");
    expect(response.status).toBe(504);
    expect(((await response.json()) as { message: string }).message).toMatch(/did not answer auth\.test within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it("answers 502 when the emulator drops the connection", async () => {
    await admin("faults", { drop_rate: 1, methods: ["users.list"] });
    const response = await call("users.list");
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toBe("upstream_unreachable");
  });

  it("refreshes a token the emulator's clock has expired, retries, and saves the new token", async () => {
    await admin("clock", { advance_s: 13 * 3600 });
    const before = (await findInstallation(installation))!.bot!.value;
    const response = await call("auth.test");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    expect(response.headers.get("x-token-refreshed")).toBe("1");
    expect((await findInstallation(installation))!.bot!.value).not.toBe(before);
    // The refresh, too, goes to the embedded emulator in process (lib/platform/oauth.ts's transport), never over loopback HTTP.
    expect(overHttp).toEqual([]);
  });
});
