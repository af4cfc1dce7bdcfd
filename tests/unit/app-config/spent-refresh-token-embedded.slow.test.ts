/**
 * Issue 23, item 1, with the embedded emulator of this process (as `npm start` runs it, served at
 * {APP_ORIGIN}/emulator by handleEmbeddedEmulatorRequest): a spent configuration refresh token hands out nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe } from "vitest";
import { handleEmbeddedEmulatorRequest } from "@/lib/embedded-emulator";
import { TestBrowser } from "../support/console";
import { openTestStore } from "../support/store";
import { spentRefreshTokenSuite } from "./support/spent-refresh-token";

let server: Server;
let origin: string;

async function serve(req: IncomingMessage, res: ServerResponse) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : undefined;
  const response = await handleEmbeddedEmulatorRequest(new Request(`${origin}${req.url ?? "/"}`, { method: req.method, headers, ...(body ? { body } : {}) }));
  const answer: Record<string, string> = {};
  response.headers.forEach((value, name) => (answer[name] = value));
  res.writeHead(response.status, answer).end(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  server = createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const key of ["PLATFORM_BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "SIGNING_SECRET", "REDIS_URL", "REFRESH_GRACE_S"]) delete process.env[key];
  Object.assign(process.env, {
    APP_ORIGIN: origin,
    REDIRECT_URI: `${origin}/oauth/callback`,
    EMULATOR_SEED: "spent-config-token-tests",
    EMULATOR_USERS: "30",
    EMULATOR_REFRESH_GRACE_S: "60",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "silent",
    DATA_DIR: "memory://",
  });
  await openTestStore();
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function admin<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${origin}/emulator/admin/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { origin, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

describe("a spent configuration refresh token, with the embedded emulator in this process", () => {
  spentRefreshTokenSuite(() => ({
    browser: () => new TestBrowser(origin),
    admin,
    appId: async () => (await admin<{ apps: { app_id: string; name: string }[] }>("apps")).apps.find((a) => a.name === "Switchboard Rotation")!.app_id,
  }));
});
