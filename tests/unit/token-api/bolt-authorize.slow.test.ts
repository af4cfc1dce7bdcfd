import { connect, createServer, type AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { defaultAppCredentials } from "@/lib/emulator";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { advanceEmulatorClock } from "../signin/support";
import { documentedAuthorize } from "./support/documented-authorize";

/**
 * Issue 27, the app side: an unmodified @slack/bolt app whose `authorize` asks the token API for each event's
 * workspace (the function docs/token-api.md gives, read from the page and run as written, but for where fetch
 * goes: here straight to the route's handler, since this console runs in the test's process). Two instances of the app share
 * the app's request URL through a round-robin proxy; the platform's clock moves past three 12-hour expiries
 * while mentions arrive: every mention is answered, never with invalid_refresh_token, and each rotation
 * costs the platform one refresh grant however many app instances ask.
 */
let testConsole: TestConsole;
let apiKey: string;
const apps: App[] = [];
const replies: string[] = [];
let proxy: ReturnType<typeof createServer>;

/** The route's handler as the backend's fetch reaches it. */
const toConsole: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const teamId = url.pathname.split("/")[4] ?? "";
  return tokenRoute(new Request(url, init), { params: Promise.resolve({ teamId }) });
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function admin(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
    headers: { origin: testConsole.origin, "content-type": "application/json", authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}` },
  });
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false", TOKEN_API_MARGIN_S: "3600" });
  const operator = new TestBrowser(testConsole.origin);
  expect((await installIn(operator)).status).toBe(303);
  const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "bolt app" } });
  apiKey = ((await created.json()) as { key: string }).key;

  const credentials = defaultAppCredentials("session-tests", "rotation");
  const ports = [await freePort(), await freePort()];
  for (const [i, port] of ports.entries()) {
    const app = new App({
      signingSecret: credentials.signingSecret,
      authorize: documentedAuthorize({ baseUrl: testConsole.origin, apiKey, fetch: toConsole }),
      clientOptions: { slackApiUrl: `${testConsole.origin}/emulator/api/`, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    app.event("app_mention", async ({ event, say }) => {
      const text = `instance ${i + 1} heard: ${event.text.replace(/<@[^>]+>\s*/, "")}`;
      await say(text);
      replies.push(text);
    });
    await app.start(port);
    apps.push(app);
  }
  // A round-robin proxy (one connection each, in turn) in front of both instances: the app's one request URL.
  let next = 0;
  proxy = createServer((socket) => {
    const target = ports[next++ % ports.length]!;
    const out = connect(target, "127.0.0.1");
    socket.pipe(out).pipe(socket);
    out.on("error", () => socket.destroy());
    socket.on("error", () => out.destroy());
  });
  const proxyPort = await new Promise<number>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve((proxy.address() as AddressInfo).port)));
  // The app's event subscription points at the proxy (as a developer sets it in the app's settings).
  const listed = (await admin("apps")).apps as Array<{ app_id: string; client_id: string; manifest: Record<string, unknown> }>;
  const app = listed.find((a) => a.client_id === credentials.clientId)!;
  const manifest = structuredClone(app.manifest) as { settings?: { event_subscriptions?: Record<string, unknown> } };
  manifest.settings = {
    ...manifest.settings,
    event_subscriptions: { ...manifest.settings?.event_subscriptions, request_url: `http://127.0.0.1:${proxyPort}/slack/events` },
  };
  const updated = await admin("apps", { app_id: app.app_id, manifest });
  expect(updated.ok, JSON.stringify(updated)).toBe(true);
}, 30_000);

afterAll(async () => {
  for (const app of apps) await app.stop().catch(() => undefined);
  proxy?.close();
  await testConsole.close();
});

describe("an unmodified @slack/bolt app whose authorize asks the token API", () => {
  it("answers every mention across three token expiries, with one refresh grant per rotation", async () => {
    const appId = defaultAppCredentials("session-tests", "rotation").appId;
    const grants = () => [...testConsole.emulator.emulator.state.installations.values()].reduce((n, i) => n + i.refreshGrants, 0);
    for (let round = 0; round < 3; round++) {
      // 11½ hours on: every token has half an hour left, less than the hour the API promises.
      await advanceEmulatorClock(testConsole.origin, 11.5 * 3600);
      await describeUpstream(getRotationRuntime(), true);
      const sent = await Promise.all([1, 2, 3, 4].map((n) => admin("mention", { app_id: appId, text: `round ${round} mention ${n}` })));
      for (const mention of sent) expect(mention.ok, JSON.stringify(mention)).toBe(true);
      await until(() => (replies.filter((r) => r.includes(`round ${round} `)).length === 4 ? true : undefined), `round ${round}'s replies`);
      expect(grants()).toBe(round + 1);
    }
    // Both instances served mentions.
    expect(replies.some((r) => r.startsWith("instance 1"))).toBe(true);
    expect(replies.some((r) => r.startsWith("instance 2"))).toBe(true);
    const deliveries = ((await admin("state")).event_deliveries as Array<{ state: string }>) ?? [];
    expect(deliveries.filter((d) => d.state !== "delivered")).toEqual([]);
  }, 60_000);
});
