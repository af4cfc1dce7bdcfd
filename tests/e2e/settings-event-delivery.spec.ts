import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./support/axe";
import { startSpecConsole, stopSpecConsole } from "./support/console-server";
import { freePort } from "./support/hosted";

/**
 * Issue 39's last item in the browser: an app whose server fails its deliveries has its events disabled by the
 * embedded emulator (fewer than 5% answered in the hour), and the app's settings page says so, since when and
 * why; an admin (the operator here) presses "Re-enable event delivery" and the page says it delivers again.
 *
 * The embedded emulator POSTs events only to the console's own `/api/events`; the app's server is a small
 * front of the console's (as the balancer of hosted-ops.spec.ts), answering this app's events with 500 (and
 * X-Slack-No-Retry) as an app that is down would, and passing everything else to the console.
 */

const ADMIN_TOKEN = randomBytes(32).toString("base64url");
const SCOPES = ["channels:history", "channels:join", "channels:read", "chat:write"];
const REDIRECT = "http://localhost:3000/oauth/callback";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

let front: Server;
let server: ChildProcess | undefined;
let origin = "";
let flakyAppId = "";

test.describe.configure({ mode: "serial" });

/** The front: this app's events fail; url_verification is answered; the rest goes to the console at `consolePort`. */
function startFront(port: number, consolePort: number): Promise<Server> {
  const front = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      if (incoming.method === "POST" && incoming.url === "/api/events") {
        const json = JSON.parse(body.toString() || "{}") as Json;
        if (json.type === "url_verification")
          return void outgoing.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ challenge: json.challenge }));
        if (flakyAppId && json.api_app_id === flakyAppId) return void outgoing.writeHead(500, { "x-slack-no-retry": "1" }).end("down");
      }
      const upstream = httpRequest(
        { host: "127.0.0.1", port: consolePort, method: incoming.method, path: incoming.url, headers: incoming.headers, agent: false },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => (outgoing.headersSent ? outgoing.destroy() : outgoing.writeHead(502).end()));
      outgoing.on("close", () => upstream.destroy());
      upstream.end(body);
    });
  });
  return new Promise((resolve) => front.listen(port, "127.0.0.1", () => resolve(front)));
}

async function emulatorAdmin(path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${origin}/emulator/admin/${path}`, {
    ...(body === undefined ? {} : { method: "POST", body: JSON.stringify(body) }),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
  });
  return (await response.json()) as Json;
}

async function webApi(method: string, params: Record<string, string>, token?: string): Promise<Json> {
  const response = await fetch(`${origin}/emulator/api/${method}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: new URLSearchParams(params),
  });
  return (await response.json()) as Json;
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const frontPort = await freePort();
  const consolePort = await freePort();
  origin = `http://localhost:${frontPort}`;
  front = await startFront(frontPort, consolePort);
  server = await startSpecConsole(consolePort, { APP_ORIGIN: origin, EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN }, "the console behind the failing front");

  // The app, as a developer makes it, installed by a person (Allow), its bot in #general.
  const created = await emulatorAdmin("apps", {
    display_information: { name: "Flaky" },
    features: { bot_user: { display_name: "flaky" } },
    oauth_config: { redirect_urls: [REDIRECT], scopes: { bot: SCOPES } },
    settings: { event_subscriptions: { request_url: `${origin}/api/events`, bot_events: ["message.channels"] } },
  });
  expect(created.ok, JSON.stringify(created)).toBe(true);
  flakyAppId = created.app.app_id;
  const authorize = new URL(`${origin}/emulator/oauth/v2/authorize`);
  for (const [k, v] of Object.entries({ client_id: created.app.client_id, scope: SCOPES.join(","), redirect_uri: REDIRECT, state: "s" }))
    authorize.searchParams.set(k, v);
  const allowed = await fetch(authorize, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ decision: "allow" }),
    redirect: "manual",
  });
  const code = new URL(allowed.headers.get("location") ?? "http://x/").searchParams.get("code") ?? "";
  const access = await webApi("oauth.v2.access", { code, client_id: created.app.client_id, client_secret: created.app.client_secret, redirect_uri: REDIRECT });
  expect(access.ok, JSON.stringify(access)).toBe(true);
  const general = ((await webApi("conversations.list", {}, access.access_token)).channels as Json[]).find((c) => c.name === "general")!.id as string;
  expect((await webApi("conversations.join", { channel: general }, access.access_token)).ok).toBe(true);

  // Members post; the app's server fails every delivery (0 of 100): the platform disables its events.
  for (let i = 0; i < 100; i++) expect((await emulatorAdmin("act/post", { channel: general, text: `event ${i}` })).ok).toBe(true);
  await expect
    .poll(async () => ((await emulatorAdmin("apps")).apps as Json[]).find((a) => a.app_id === flakyAppId)?.event_subscriptions?.disabled, { timeout: 30_000 })
    .toMatchObject({ reason: "delivery_failures", attempted: 100, delivered: 0 });
});

test.afterAll(async () => {
  stopSpecConsole(server);
  await new Promise((resolve) => front?.close(resolve));
});

test("the settings page shows an app's disabled event delivery, since when and why, and an admin turns it on again", async ({ page }) => {
  await page.goto(`${origin}/settings`);
  await page.getByLabel("App", { exact: true }).selectOption({ label: `Flaky · ${flakyAppId}` });
  const panel = page.getByRole("region", { name: "Event delivery disabled" });
  await expect(panel).toBeVisible();
  // The sentence, not only the badge: "disabled since <when>", then why and what it means.
  const since = panel.getByRole("paragraph").first();
  await expect(since).toHaveText(/^disabled\s*since \S.*\d/);
  await expect(since.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d\d-\d\dT/);
  await expect(panel).toContainText(
    "The app answered 0 of its last 100 deliveries with a 2xx in the hour, fewer than 5%: the platform sends it no event until delivery is enabled again",
  );
  await expect(panel.locator("time")).not.toHaveText("");

  await panel.scrollIntoViewIfNeeded();
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`settings-delivery-disabled-${scheme}-${width}.png`) });
    }
    expect(await seriousViolations(page)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });

  await panel.getByRole("button", { name: "Re-enable event delivery" }).click();
  await expect(page.getByText(`Event delivery is on again for Flaky.`)).toBeVisible();
  await expect(panel).toBeHidden();
  await expect(page.getByText("delivering", { exact: true })).toBeVisible();
  const app = ((await emulatorAdmin("apps")).apps as Json[]).find((a) => a.app_id === flakyAppId)!;
  expect(app.event_subscriptions.disabled).toBeNull();
});
