import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
import { App, LogLevel, type AuthorizeResult, type AuthorizeSourceData } from "@slack/bolt";
import { expect, test } from "@playwright/test";
import { defaultAppCredentials } from "@/lib/emulator";
import { startPostgres, type TestPostgres } from "../unit/support/postgres";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { freePort, startStandaloneEmulator, type StandaloneEmulator } from "./support/hosted";

/**
 * The hosted shape with the token API (issue 27): the standalone emulator as the platform, two console
 * instances (`next start`, the suite's build) sharing one PostgreSQL, each with its background refresher on,
 * and the app: two instances of an unmodified @slack/bolt app behind one round-robin request URL, whose
 * `authorize` (docs/token-api.md's, with Node's own fetch) asks the consoles in turn for each event's token.
 * The platform's clock moves past three 12-hour expiries while mentions arrive: every mention is answered,
 * no event fails, and each rotation costs the platform one grant per token however many instances ask.
 */
const mainPort = Number(process.env.E2E_PORT ?? 3100);
const consolePorts = [mainPort + 5, mainPort + 6];
const consoles = consolePorts.map((p) => `http://localhost:${p}`);
const SEED = "hosted-e2e";
const ADMIN_TOKEN = randomBytes(32).toString("base64url");
const app = defaultAppCredentials(SEED, "rotation");

let postgres: TestPostgres;
let emulator: StandaloneEmulator;
let emulatorUrl = "";
const servers: ChildProcess[] = [];
const bolts: App[] = [];
let proxy: Server;
const replies: string[] = [];

/** docs/token-api.md's authorize for Bolt, asking the consoles in turn (as a load balancer would send it). */
function switchboardAuthorize(apiKey: string) {
  let next = 0;
  return async (source: AuthorizeSourceData<boolean>): Promise<AuthorizeResult> => {
    const team = source.isEnterpriseInstall ? source.enterpriseId : source.teamId;
    const baseUrl = consoles[next++ % consoles.length]!;
    const response = await fetch(`${baseUrl}/api/v1/installations/${team}/token?kind=bot`, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await response.json()) as { access_token?: string; error?: string };
    if (!response.ok || !body.access_token) throw new Error(`Switchboard answered ${response.status} ${body.error ?? ""}`);
    return { botToken: body.access_token };
  };
}

const grants = async () => ((await emulator.admin("state")).installations as Array<{ refresh_grants: number }>).reduce((n, i) => n + i.refresh_grants, 0);

test.beforeAll(async () => {
  test.setTimeout(300_000);
  postgres = await startPostgres();
  const databaseUrl = await postgres.createDatabase("hosted");
  emulator = await startStandaloneEmulator({ port: await freePort(), seed: SEED, adminToken: ADMIN_TOKEN, consoleOrigins: consoles });
  emulatorUrl = emulator.url;
  // The same store and the same keys for both instances, as behind a load balancer.
  const shared = {
    DATABASE_URL: databaseUrl,
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    PLATFORM_BASE_URL: emulatorUrl,
    CLIENT_ID: app.clientId,
    CLIENT_SECRET: app.clientSecret,
    SIGNING_SECRET: app.signingSecret,
    EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN,
    BACKGROUND_REFRESH: "true",
    REFRESHER_INTERVAL_S: "2",
  };
  for (const [i, port] of consolePorts.entries()) servers.push(await startSpecConsole(port, shared, `console instance ${i + 1}`));
});

test.afterAll(async () => {
  for (const bolt of bolts) await bolt.stop().catch(() => undefined);
  proxy?.close();
  for (const server of servers) stopSpecConsole(server);
  emulator?.stop();
  await postgres?.stop();
});

test("an unmodified Bolt app, two instances, gets every event's token from two console instances across three expiries: one grant per rotation", async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Installed through the first instance, as a person does: Add to workspace, Allow on the platform's page.
  await page.goto(`${consoles[0]}/`);
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(new RegExp(`^${consoles[0]}/\\?installed=`));
  // The second instance lists it: the installation is in the shared store.
  const second = await page.request.get(`${consoles[1]}/api/session`, { headers: { "x-switchboard-request": "1" } });
  expect(((await second.json()) as { installations: unknown[] }).installations).toHaveLength(1);

  const created = await page.request.post(`${consoles[1]}/api/api-keys`, { headers: { origin: consoles[1]! }, data: { name: "the Bolt app" } });
  expect(created.status()).toBe(201);
  const { key } = (await created.json()) as { key: string };

  // Two instances of the app behind a round-robin proxy: its one request URL.
  const ports = [await freePort(), await freePort()];
  for (const [i, port] of ports.entries()) {
    const bolt = new App({
      signingSecret: app.signingSecret,
      authorize: switchboardAuthorize(key),
      clientOptions: { slackApiUrl: `${emulatorUrl}/api/`, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });
    bolt.event("app_mention", async ({ event, say }) => {
      const text = `instance ${i + 1} heard: ${event.text.replace(/<@[^>]+>\s*/, "")}`;
      await say(text);
      replies.push(text);
    });
    await bolt.start(port);
    bolts.push(bolt);
  }
  let turn = 0;
  proxy = createServer((socket) => {
    const out = connect(ports[turn++ % ports.length]!, "127.0.0.1");
    socket.pipe(out).pipe(socket);
    out.on("error", () => socket.destroy());
    socket.on("error", () => out.destroy());
  });
  const proxyPort = await new Promise<number>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve((proxy.address() as AddressInfo).port)));
  const apps = (await emulator.admin("apps")).apps as Array<{ app_id: string; client_id: string; manifest: { settings?: Record<string, unknown> } }>;
  const registered = apps.find((a) => a.client_id === app.clientId)!;
  const manifest = structuredClone(registered.manifest);
  manifest.settings = {
    ...manifest.settings,
    event_subscriptions: { ...(manifest.settings?.event_subscriptions as object), request_url: `http://127.0.0.1:${proxyPort}/slack/events` },
  };
  expect((await emulator.admin("apps", { app_id: registered.app_id, manifest })).ok).toBe(true);

  const before = await grants();
  for (let round = 0; round < 3; round++) {
    // 11½ hours on: every token has half an hour left; the refreshers learn the platform's time at their next pass.
    expect((await emulator.admin("clock", { advance_s: 11.5 * 3600 })).ok).toBe(true);
    await page.waitForTimeout(3_000);
    const sent = await Promise.all([1, 2, 3, 4].map((n) => emulator.admin("mention", { app_id: registered.app_id, text: `round ${round} mention ${n}` })));
    for (const mention of sent) expect(mention.ok, JSON.stringify(mention)).toBe(true);
    await expect.poll(() => replies.filter((r) => r.includes(`round ${round} `)).length, { timeout: 20_000 }).toBe(4);
    // The bot token and the installer's user token: one grant each per rotation, whichever instance refreshed.
    expect((await grants()) - before).toBe(2 * (round + 1));
  }
  expect(replies.some((r) => r.startsWith("instance 1"))).toBe(true);
  expect(replies.some((r) => r.startsWith("instance 2"))).toBe(true);
  const deliveries = (await emulator.admin("state")).event_deliveries as Array<{ state: string }>;
  expect(deliveries.filter((d) => d.state !== "delivered")).toEqual([]);
  // Every use of the key was answered (its audit, in the shared store, read through either instance).
  const keys = (await (await page.request.get(`${consoles[0]}/api/api-keys`, { headers: { "x-switchboard-request": "1" } })).json()) as {
    apiKeys: Array<{ id: string }>;
  };
  const uses = (await (
    await page.request.get(`${consoles[1]}/api/api-keys/${keys.apiKeys[0]!.id}/uses?limit=200`, { headers: { "x-switchboard-request": "1" } })
  ).json()) as { uses: Array<{ status: number }> };
  expect(uses.uses.filter((u) => u.status !== 200)).toEqual([]);
});
