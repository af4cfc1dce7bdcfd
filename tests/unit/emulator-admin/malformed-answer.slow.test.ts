import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as messagesRoute } from "@/app/api/emulator/messages/route";
import { GET as methodsRoute } from "@/app/api/emulator/methods/route";
import { createEmulator, type Emulator } from "@/lib/emulator";
import { REDIRECT_URI, TestBrowser } from "../support/console";
import { openTestStore } from "../support/store";

/**
 * The console's client of the emulator's admin surface parses every answer: an emulator of another version,
 * whose answers lack a field the console reads or give it another type, is said to be one (502
 * emulator_answer_malformed, naming the field but never its value) instead of being read as undefined.
 * The emulator is the real one, over real HTTP; only the answers this test names are changed on the way,
 * as another version of it would answer them.
 */
let emulator: Emulator;
let server: Server;
let origin: string;
/** By admin path (/emulator/admin/…): how this "other version" changes the real emulator's answer. */
const changes = new Map<string, (body: Record<string, unknown>) => unknown>();

beforeAll(async () => {
  const adminToken = randomBytes(32).toString("base64url");
  emulator = createEmulator({ basePath: "/emulator", users: 20, seed: "malformed-admin", admin: { token: adminToken } });
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", origin);
    const answer = await emulator.fetch(new Request(url, { method, headers, ...(method === "GET" ? {} : { body: Buffer.concat(chunks) }) }));
    const change = changes.get(url.pathname);
    const body = change ? JSON.stringify(change((await answer.json()) as Record<string, unknown>)) : Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    APP_ORIGIN: origin,
    REDIRECT_URI,
    EMULATOR_SEED: "malformed-admin",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "silent",
  });
  for (const name of ["PLATFORM_BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "DATABASE_URL"]) delete process.env[name];
  await openTestStore();
});
afterEach(() => changes.clear());
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function errorOf(response: Response) {
  return { status: response.status, body: (await response.json()) as { ok: boolean; error: string; message: string } };
}

describe("an admin answer of another shape", () => {
  it("is passed on as it came while it is the shape the console reads", async () => {
    const response = await new TestBrowser(origin).send(methodsRoute, "/api/emulator/methods");
    expect(response.status).toBe(200);
    const { methods } = (await response.json()) as { methods: Array<Record<string, unknown>> };
    expect(methods).toContainEqual({
      name: "users.list",
      tier: 2,
      auth: "token",
      scopes: { bot: ["users:read"], user: ["users:read"] },
      paginated: true,
      pages: "members",
      json: false,
    });
  });

  it("is refused as emulator_answer_malformed, naming the field, when a method's field has another type", async () => {
    changes.set("/emulator/admin/methods", (body) => ({
      ...body,
      methods: (body.methods as Array<Record<string, unknown>>).map((m) => ({ ...m, paginated: m.paginated ? "yes-secret-value" : "no" })),
    }));
    const { status, body } = await errorOf(await new TestBrowser(origin).send(methodsRoute, "/api/emulator/methods"));
    expect(status).toBe(502);
    expect(body).toMatchObject({ ok: false, error: "emulator_answer_malformed" });
    expect(body.message).toContain("answered methods in a shape this console does not read");
    expect(body.message).toMatch(/methods\.\d+\.paginated/);
    expect(body.message).not.toContain("yes-secret-value");
  });

  it("is refused, rather than shown as a channel without messages, when the state lacks its workspace", async () => {
    changes.set("/emulator/admin/state", ({ team: _team, ...rest }) => rest);
    const { status, body } = await errorOf(await new TestBrowser(origin).send(messagesRoute, "/api/emulator/messages?channel=C0123ABCD"));
    expect(status).toBe(502);
    expect(body).toMatchObject({ error: "emulator_answer_malformed", message: expect.stringContaining("team") });
  });

  it("is refused as the emulator's, not as the browser's request (422), when an app lacks its client id", async () => {
    changes.set("/emulator/admin/apps", (body) => ({
      ...body,
      apps: (body.apps as Array<Record<string, unknown>>).map(({ client_id: _clientId, ...app }) => app),
    }));
    const { status, body } = await errorOf(await new TestBrowser(origin).send(overviewRoute, "/api/app-config"));
    expect(status).toBe(502);
    expect(body).toMatchObject({ error: "emulator_answer_malformed", message: expect.stringMatching(/apps\.0\.client_id/) });
  });
});
