import { OPERATOR } from "@/lib/viewer";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mentionRoute } from "@/app/api/emulator/mention/route";
import { POST as eventsRoute } from "@/app/api/events/route";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { getEventFeed, type ReceivedEvent } from "@/lib/events/feed";
import { TestBrowser } from "../support/console";
import { installIn } from "../support/install";

/**
 * The whole loop over real HTTP: the console's "mention the app" asks the emulator to post a mention, the
 * emulator signs an app_mention with the app's signing secret and POSTs it to the request URL, where the
 * console's POST /api/events verifies it and puts it in the feed.
 */
let events: Server;
let emulator: EmulatorServer;
const received: Array<{ status: number }> = [];
/** While set, the request URL answers 503 to everything, as a server still starting would. */
let unavailable = false;

beforeAll(async () => {
  events = createServer(async (req, res) => {
    if (unavailable) {
      res.writeHead(503).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await eventsRoute(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }));
    received.push({ status: response.status });
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => events.listen(0, "127.0.0.1", resolve));
  const eventsUrl = `http://127.0.0.1:${(events.address() as AddressInfo).port}/api/events`;
  // The console reaches its emulator's admin surface with the admin token, which the two must share.
  const adminToken = randomBytes(32).toString("base64url");
  emulator = await startEmulatorServer({ basePath: "/emulator", users: 50, seed: "events-tests", eventsRequestUrl: eventsUrl, admin: { token: adminToken } });
  Object.assign(process.env, {
    APP_ORIGIN: `http://127.0.0.1:${emulator.port}`,
    REDIRECT_URI: "http://localhost:3000/oauth/callback",
    // The console's signing secret then is the emulator's rotation app's, as with the embedded emulator.
    EMULATOR_SEED: "events-tests",
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: "silent",
  });
  delete process.env.PLATFORM_BASE_URL;
  delete process.env.SIGNING_SECRET;
});

afterAll(async () => {
  await emulator.close();
  events.closeAllConnections();
  await new Promise((resolve) => events.close(resolve));
});

function nextEvent(match: (event: ReceivedEvent) => boolean, timeoutMs = 5000): Promise<ReceivedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("no matching event arrived"));
    }, timeoutMs);
    const unsubscribe = getEventFeed().subscribe((event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

describe("mention the app, end to end", () => {
  it("delivers a signed app_mention that the console verifies and shows", async () => {
    const browser = new TestBrowser(`http://127.0.0.1:${emulator.port}`);
    expect((await installIn(browser)).status).toBe(303);
    const installationId = await newestInstallationId();

    const arrival = nextEvent((e) => e.eventType === "app_mention");
    const response = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId, text: "deploy please" } });
    expect(response.status).toBe(200);
    const mention = (await response.json()) as { text: string; event_ids: string[] };
    expect(mention.event_ids).toHaveLength(1);

    const event = await arrival;
    expect(event).toMatchObject({ envelopeType: "event_callback", eventId: mention.event_ids[0], retryNum: null });
    expect(event.payload).toMatchObject({ event: { type: "app_mention", text: mention.text } });
    expect(received.every((r) => r.status === 200)).toBe(true);
  });

  it("delivers to an installation of the emulator's legacy app too, signed with that app's secret", async () => {
    const browser = new TestBrowser(`http://127.0.0.1:${emulator.port}`);
    expect((await installIn(browser, "?app=legacy")).status).toBe(303);
    const installationId = await newestInstallationId();

    const arrival = nextEvent((e) => e.eventType === "app_mention");
    const response = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId, text: "legacy hello" } });
    expect(response.status).toBe(200);
    const mention = (await response.json()) as { text: string; event_ids: string[] };
    const event = await arrival;
    expect(event).toMatchObject({ eventId: mention.event_ids[0] });
    expect(event.payload).toMatchObject({ event: { text: mention.text } });
    expect(received.every((r) => r.status === 200)).toBe(true);
  });

  it("verifies the request URL again when the emulator's verification failed, then delivers", async () => {
    const browser = new TestBrowser(`http://127.0.0.1:${emulator.port}`);
    expect((await installIn(browser)).status).toBe(303);
    const installationId = await newestInstallationId();
    const origin = `http://127.0.0.1:${emulator.port}`;
    const apps = (await (await fetch(`${origin}/emulator/admin/apps`)).json()) as { apps: Array<{ app_id: string; name: string }> };
    const rotation = apps.apps.find((a) => a.name === "Switchboard Rotation")!;

    unavailable = true;
    const failed = await fetch(`${origin}/emulator/admin/apps/${rotation.app_id}/verify`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: "{}",
    });
    expect(await failed.json()).toMatchObject({ request_url_verification: { state: "failed", failure: "http_error", status: 503 } });

    // Still unavailable: the console says why no event can arrive, and posts nothing.
    const refused = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId, text: "anyone?" } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "request_url_not_verified", message: expect.stringContaining("HTTP 503") });

    unavailable = false;
    const arrival = nextEvent((e) => e.eventType === "app_mention" && JSON.stringify(e.payload).includes("back again"));
    const response = await browser.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId, text: "back again" } });
    expect(response.status).toBe(200);
    const mention = (await response.json()) as { event_ids: string[] };
    expect((await arrival).eventId).toBe(mention.event_ids[0]);
  });
});

/** The installation installed last (installations live in the server's store, not in the browser's cookies). */
async function newestInstallationId(): Promise<string> {
  const { getSessionInstallations } = await import("@/lib/installations/actions/list-installations");
  const all = await getSessionInstallations({ viewer: OPERATOR });
  return [...all].sort((a, b) => a.updatedAt - b.updatedAt).at(-1)?.id ?? "";
}
