import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { POST as generateRoute } from "@/app/api/app-config/apps/[appId]/app-tokens/route";
import { POST as revokeRoute } from "@/app/api/app-config/apps/[appId]/app-tokens/revoke/route";
import { POST as disconnectRoute } from "@/app/api/app-config/apps/[appId]/connections/disconnect/route";
import { GET as socketModeRoute, POST as switchRoute } from "@/app/api/app-config/apps/[appId]/socket-mode/route";
import { GET as recordsRoute } from "@/app/api/emulator/records/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import type { NewAppTokenAnswer, SocketModeView } from "@/lib/app-config/universal/socket-mode";
import type { EmulatorRecordWire } from "@/lib/emulator-admin/universal/schemas";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

/**
 * Issues 39 and 40, the console's side: the settings page's app-level tokens, Socket Mode switch and
 * connections, and the events page's records, through the console's routes against the emulator as a real
 * HTTP peer, with sign-in on (an admin through ADMIN_USERS, a member who is not one).
 */
let testConsole: TestConsole;
let ws: Workspace;
let admin: TestBrowser;
let member: TestBrowser;
let appId: string;
/** Every answer body the console's routes gave, to check that no app-level token is in any but its own. */
const bodies: Array<{ route: string; text: string }> = [];

async function signedIn(userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const back = await returnToConsole(browser, await pickMemberAt(await startSignIn(browser), { userId }));
  expect(back.status).toBe(303);
  return browser;
}

async function read<T>(route: string, response: Response): Promise<{ status: number; body: T }> {
  const text = await response.text();
  bodies.push({ route, text });
  return { status: response.status, body: JSON.parse(text) as T };
}

const path = (rest: string) => `/api/app-config/apps/${appId}/${rest}`;
const view = async (b: TestBrowser) => read<SocketModeView>("socket-mode", await b.send(socketModeRoute, path("socket-mode"), { params: { appId } }));
const generate = async (b: TestBrowser, json: unknown, init: { headers?: Record<string, string> } = {}) =>
  read<NewAppTokenAnswer & { error?: string }>(
    "app-tokens",
    await b.send(generateRoute, path("app-tokens"), { method: "POST", json, params: { appId }, ...init }),
  );

/** A call of the emulator's Web API, as an app makes it. */
async function callApi(method: string, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${testConsole.origin}/emulator/api/${method}`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as Record<string, unknown>;
}

/** The emulator's admin surface, as a test's script (never the console's client of it). */
async function adminSurface(route: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** A bare Socket Mode client: opens the connection and keeps every message it gets, acking each envelope. */
async function connect(token: string): Promise<{ socket: WebSocket; messages: Array<Record<string, unknown>> }> {
  const opened = await callApi("apps.connections.open", token);
  expect(opened).toMatchObject({ ok: true, url: expect.stringMatching(/^wss?:\/\//) });
  const socket = new WebSocket(opened.url as string);
  const messages: Array<Record<string, unknown>> = [];
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(message);
    if (typeof message.envelope_id === "string") socket.send(JSON.stringify({ envelope_id: message.envelope_id }));
  });
  await until(() => messages.some((m) => m.type === "hello"));
  return { socket, messages };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  ws = [...testConsole.emulator.emulator.state.workspaces.values()][0]!;
  const members = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
  // Read by the console's configuration on its first request, which has not come yet.
  process.env.ADMIN_USERS = members[1]!;
  admin = await signedIn(members[1]!);
  member = await signedIn(members[2]!);
  // The member installs the console's app: its settings are then theirs to read (not to change).
  const done = await installIn(member);
  expect(done.status).toBe(303);
  appId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!.split("-")[1]!;
});
afterAll(() => {
  delete process.env.ADMIN_USERS;
  return testConsole.close();
});

describe("app-level tokens and Socket Mode through the console's settings routes", () => {
  let token: string;

  it("an admin generates an app-level token: its value is in that answer only, listed masked afterwards, and it opens connections", async () => {
    const made = await generate(admin, { name: "socket", scopes: ["connections:write"] });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "socket", scopes: ["connections:write"], token: expect.stringMatching(/^xapp-1-/) });
    token = made.body.token;
    const listed = made.body.socketMode;
    expect(listed).toMatchObject({ available: true, socketModeEnabled: false, tokens: [{ name: "socket", revokedAt: null }] });
    const { body: again } = await view(admin);
    expect(again.available && again.tokens.map((t) => t.name)).toEqual(["socket"]);
    expect(again.available && again.tokens[0]!.masked).toBe(`xapp-1-…${token.slice(-4)}`);
    expect(await callApi("apps.connections.open", token)).toMatchObject({ ok: true });
  });

  it("refuses a second token of the same name, and a scope the platform has not, and makes nothing", async () => {
    expect((await generate(admin, { name: "socket", scopes: ["connections:write"] })).body).toMatchObject({ error: "name_taken" });
    const bad = await generate(admin, { name: "other", scopes: ["chat:write"] });
    expect(bad.status).toBe(422);
    const { body } = await view(admin);
    expect(body.available && body.tokens.map((t) => t.name)).toEqual(["socket"]);
  });

  it("lets a member read the panel, masked, and refuses them every change", async () => {
    const { status, body } = await view(member);
    expect(status).toBe(200);
    expect(body.available && body.tokens[0]!.masked).toMatch(/^xapp-1-…/);
    const refused = await generate(member, { name: "mine", scopes: ["connections:write"] });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "not_allowed" });
    const switched = await member.send(switchRoute, path("socket-mode"), { method: "POST", json: { enabled: true }, params: { appId } });
    expect(switched.status).toBe(403);
    const revoked = await member.send(revokeRoute, path("app-tokens/revoke"), { method: "POST", json: { name: "socket" }, params: { appId } });
    expect(revoked.status).toBe(403);
  });

  it("refuses a cross-origin POST, even from an admin's browser, and makes nothing", async () => {
    const refused = await generate(
      admin,
      { name: "evil", scopes: ["connections:write"] },
      { headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "forbidden_origin" });
    const { body } = await view(admin);
    expect(body.available && body.tokens.map((t) => t.name)).toEqual(["socket"]);
  });

  it("switches Socket Mode on, lists a bare ws client's connection, and sends it disconnect refresh_requested", async () => {
    const switched = await read<SocketModeView>(
      "socket-mode",
      await admin.send(switchRoute, path("socket-mode"), { method: "POST", json: { enabled: true }, params: { appId } }),
    );
    expect(switched.body).toMatchObject({ available: true, socketModeEnabled: true, connections: [] });
    const client = await connect(token);
    try {
      const { body } = await view(admin);
      expect(body.available && body.connections).toEqual([expect.objectContaining({ disconnectSent: false, envelopesSent: 0 })]);
      const id = body.available ? body.connections[0]!.id : "";
      const told = await read<SocketModeView>(
        "disconnect",
        await admin.send(disconnectRoute, path("connections/disconnect"), {
          method: "POST",
          json: { reason: "refresh_requested", connectionId: id },
          params: { appId },
        }),
      );
      expect(told.status).toBe(200);
      await until(() => client.messages.some((m) => m.type === "disconnect"));
      expect(client.messages.find((m) => m.type === "disconnect")).toMatchObject({ reason: "refresh_requested" });
      const bad = await admin.send(disconnectRoute, path("connections/disconnect"), { method: "POST", json: { reason: "bored" }, params: { appId } });
      expect(bad.status).toBe(422);
    } finally {
      client.socket.terminate();
    }
  });

  it("lists, on the events page's route, the delivery of a member's mention sent to that connection, then revokes the token", async () => {
    const client = await connect(token);
    try {
      const mention = await adminSurface("mention", { app_id: appId, text: "over the socket" });
      expect(mention).toMatchObject({ ok: true });
      await until(() => client.messages.some((m) => m.type === "events_api"));
      let records: EmulatorRecordWire[] = [];
      await until(async () => {
        records = (await read<{ records: EmulatorRecordWire[] }>("records", await admin.send(recordsRoute, "/api/emulator/records"))).body.records;
        return records[0]?.kind === "event" && records[0].state === "delivered";
      });
      expect(records[0]).toMatchObject({ kind: "event", event_type: "app_mention", app_id: appId, via: "socket", state: "delivered" });
      expect(records[0]!.kind === "event" && records[0]!.event).toMatchObject({ type: "app_mention", text: expect.stringContaining("over the socket") });
      // The member reads their own workspace's records too.
      const theirs = await read<{ records: EmulatorRecordWire[] }>("records", await member.send(recordsRoute, "/api/emulator/records"));
      expect(theirs.body.records.map((r) => r.id)).toContain(records[0]!.id);
    } finally {
      client.socket.terminate();
    }
    const revoked = await read<SocketModeView>(
      "revoke",
      await admin.send(revokeRoute, path("app-tokens/revoke"), { method: "POST", json: { name: "socket" }, params: { appId } }),
    );
    expect(revoked.body.available && revoked.body.tokens[0]!.revokedAt).toEqual(expect.any(String));
    expect(await callApi("apps.connections.open", token)).toMatchObject({ ok: false, error: "invalid_auth" });
  });

  it("lists an interaction that failed, with why: a global shortcut in Socket Mode with no connection open", async () => {
    const { apps } = (await (
      await fetch(`${testConsole.origin}/emulator/admin/apps`, { headers: { authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}` } })
    ).json()) as {
      apps: Array<{ app_id: string; manifest: Record<string, Record<string, unknown>> }>;
    };
    const manifest = apps.find((a) => a.app_id === appId)!.manifest;
    const shortcuts = [{ name: "Go", type: "global", callback_id: "go", description: "Goes" }];
    const saved = await adminSurface("apps", {
      app_id: appId,
      manifest: { ...manifest, features: { ...manifest.features, shortcuts }, settings: { ...manifest.settings, interactivity: { is_enabled: true } } },
    });
    expect(saved).toMatchObject({ ok: true });
    const acted = await adminSurface("act/shortcut", { callback_id: "go", app_id: appId });
    expect(acted).toMatchObject({ outcome: "dispatch_failed", via: "socket" });
    const { body } = await read<{ records: EmulatorRecordWire[] }>("records", await admin.send(recordsRoute, "/api/emulator/records"));
    expect(body.records[0]).toMatchObject({ kind: "interaction", type: "shortcut", via: "socket", outcome: "dispatch_failed", app_id: appId });
    // The deprecated verification token stays out of what is listed.
    expect(body.records[0]!.kind === "interaction" && body.records[0]!.payload).not.toHaveProperty("token");
  });

  it("never put an app-level token in any answer but the one that generated it", () => {
    const leaking = bodies.filter((b) => b.route !== "app-tokens" && /xapp-1-[A-Za-z0-9-]{10,}/.test(b.text));
    expect(leaking).toEqual([]);
    expect(bodies.filter((b) => b.text.includes(token)).map((b) => b.route)).toEqual(["app-tokens"]);
  });
});
