/**
 * An app built on the platform's official framework (@slack/bolt), unmodified, against the standalone
 * emulator (`npm run emulator`, a child process) over HTTP with nothing between them: the emulator
 * verifies Bolt's request URL, Bolt installs itself through its own OAuth routes and installation store,
 * Bolt's authorize refreshes its rotating token once the clocks have moved, an app_mention reaches its
 * HTTP receiver (which checks the signature), and say() replies where conversations.history reads it back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { App, LogLevel, type Installation, type InstallationQuery } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Json } from "./support/emulator-harness";

const TWELVE_HOURS_S = 12 * 3600;
/** How long ago (in the app's and the emulator's time) the app is installed: its token has 30 minutes left. */
const INSTALLED_AGO_S = 11.5 * 3600;

let emulator: ChildProcess;
let emulatorUrl: string;
let bolt: App;
let boltUrl: string;
let appId: string;
const installations = new Map<string, Installation>();
const replies: string[] = [];

/** Starts `npm run emulator`'s script on a free port and resolves with its base URL once it listens. */
function startStandaloneEmulator(): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/emulator-server.ts", "--port", "0", "--users", "40", "--seed", "bolt-tests"], {
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, EMULATOR_EVENTS_URL: "" },
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ process: child, url });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}):\n${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function admin(path: string, body?: unknown): Promise<Json> {
  const headers = { origin: new URL(emulatorUrl).origin, "content-type": "application/json" };
  const init = body === undefined ? {} : { method: "POST", headers, body: JSON.stringify(body) };
  const response = await fetch(`${emulatorUrl}/admin/${path}`, init);
  return (await response.json()) as Json;
}

/** The manifest a developer writes for the Bolt app; the request URL is added once the app runs. */
function manifest(requestUrl?: string) {
  return {
    display_information: { name: "Bolt Greeter" },
    features: { bot_user: { display_name: "greeter" } },
    oauth_config: {
      redirect_urls: [`${boltUrl}/slack/oauth_redirect`],
      scopes: { bot: ["app_mentions:read", "chat:write", "channels:history"] },
    },
    settings: {
      token_rotation_enabled: true,
      event_subscriptions: { ...(requestUrl ? { request_url: requestUrl } : {}), bot_events: ["app_mention"] },
    },
  };
}

async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  const started = await startStandaloneEmulator();
  emulator = started.process;
  emulatorUrl = started.url;
  boltUrl = `http://127.0.0.1:${await freePort()}`;

  // The developer creates the app, and reads its credentials from its settings.
  const created = await admin("apps", manifest());
  const credentials = created.app as Json;
  appId = String(credentials.app_id);

  bolt = new App({
    signingSecret: String(credentials.signing_secret),
    clientId: String(credentials.client_id),
    clientSecret: String(credentials.client_secret),
    stateSecret: "the Bolt app's own state secret",
    scopes: ["app_mentions:read", "chat:write", "channels:history"],
    redirectUri: `${boltUrl}/slack/oauth_redirect`,
    installerOptions: { directInstall: true, authorizationUrl: `${emulatorUrl}/oauth/v2/authorize`, redirectUriPath: "/slack/oauth_redirect" },
    clientOptions: { slackApiUrl: `${emulatorUrl}/api/`, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
    installationStore: {
      storeInstallation: async (installation) => {
        installations.set(installation.team?.id ?? "", structuredClone(installation));
      },
      fetchInstallation: async (query: InstallationQuery<boolean>) => {
        const found = installations.get(query.teamId ?? "");
        if (!found) throw new Error(`no installation for ${query.teamId}`);
        return structuredClone(found);
      },
      deleteInstallation: async (query) => {
        installations.delete(query.teamId ?? "");
      },
    },
  });
  bolt.event("app_mention", async ({ event, say }) => {
    const text = `Hello <@${event.user}>, you said: ${event.text.replace(/<@[^>]+>\s*/, "")}`;
    await say(text);
    replies.push(text);
  });
  await bolt.start(Number(new URL(boltUrl).port));
}, 30_000);

afterAll(async () => {
  await bolt?.stop().catch(() => undefined);
  emulator?.kill("SIGTERM");
});

describe("an unmodified @slack/bolt app against the standalone emulator", () => {
  it("answers url_verification when its request URL is set, so events may go there", async () => {
    const updated = await admin("apps", { app_id: appId, manifest: manifest(`${boltUrl}/slack/events`) });
    expect(updated.ok).toBe(true);
    const verification = await until(async () => {
      const apps = (await admin("apps")).apps as Array<{ app_id: string; event_subscriptions: { request_url_verification: Json | null } }>;
      const current = apps.find((a) => a.app_id === appId)?.event_subscriptions.request_url_verification;
      return current && current.state !== "pending" ? current : undefined;
    }, "the verification");
    expect(verification).toMatchObject({ url: `${boltUrl}/slack/events`, state: "verified", status: 200, failure: null });
  });

  it("installs through its OAuth routes, refreshes through authorize after the clocks move, and replies to a mention", async () => {
    // Installed 11½ hours ago: the app's clock (this process) is set back for the install, and the emulator's
    // moves on afterwards, so both agree that the token has 30 minutes left.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - INSTALLED_AGO_S * 1000 });
    try {
      const install = await fetch(`${boltUrl}/slack/install`, { redirect: "manual" });
      expect(install.status).toBe(302);
      const stateCookie =
        install.headers
          .getSetCookie()
          .find((c) => c.startsWith("slack-app-oauth-state="))
          ?.split(";")[0] ?? "";
      const authorize = install.headers.get("location") ?? "";
      expect(authorize.startsWith(`${emulatorUrl}/oauth/v2/authorize?`)).toBe(true);

      // A person clicks Allow on the consent page.
      const page = await fetch(authorize);
      const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&amp;/g, "&") ?? "";
      const allowed = await fetch(new URL(action, authorize), { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
      const callback = allowed.headers.get("location") ?? "";
      expect(callback.startsWith(`${boltUrl}/slack/oauth_redirect?`)).toBe(true);

      const done = await fetch(callback, { headers: { cookie: stateCookie } });
      expect(done.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    expect(installations.size).toBe(1);
    const [installed] = [...installations.values()];
    const teamId = installed?.team?.id ?? "";
    const firstToken = installed?.bot?.token ?? "";
    expect(firstToken).toMatch(/^xoxe\.xoxb-/);
    expect(installed?.bot?.refreshToken).toMatch(/^xoxe-/);
    expect((installed?.bot?.expiresAt ?? 0) - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(TWELVE_HOURS_S - INSTALLED_AGO_S + 5);

    await admin("clock", { advance_s: INSTALLED_AGO_S });

    // A member mentions the app; Bolt checks the signature, authorizes (refreshing the token), and says hello.
    const mention = await admin("mention", { app_id: appId, text: "what's new?" });
    expect(mention).toMatchObject({ ok: true, event_ids: [expect.any(String)] });
    const reply = await until(async () => replies[0], "Bolt's reply");
    expect(reply).toContain("you said: what's new?");

    const refreshed = installations.get(teamId);
    expect(refreshed?.bot?.token).toMatch(/^xoxe\.xoxb-/);
    expect(refreshed?.bot?.token).not.toBe(firstToken);
    const state = await admin("state");
    const installation = (state.installations as Json[]).find((i) => i.app_id === appId) as Json;
    expect(installation.refresh_grants).toBe(1);
    const delivery = (state.event_deliveries as Json[]).find((d) => d.event_id === (mention.event_ids as string[])[0]) as Json;
    expect(delivery).toMatchObject({ state: "delivered", attempts: [{ status: 200, failure: null }] });

    // The reply, read back with conversations.history through the official client and the refreshed token.
    const client = new WebClient(refreshed?.bot?.token, { slackApiUrl: `${emulatorUrl}/api/` });
    const history = await client.conversations.history({ channel: String(mention.channel), limit: 10 });
    expect(history.messages?.map((m) => m.text)).toContain(reply);
    const posted = history.messages?.find((m) => m.text === reply);
    expect(posted?.bot_id).toBeDefined();
    // The old token is the oldest of the active tokens and still works until it expires, per the spec.
    expect((await new WebClient(firstToken, { slackApiUrl: `${emulatorUrl}/api/` }).auth.test()).ok).toBe(true);

    // A second mention needs no refresh: the new token has 12 hours.
    await admin("mention", { app_id: appId, text: "again" });
    await until(async () => replies[1], "the second reply");
    const after = (await admin("state")).installations as Json[];
    expect(after.find((i) => i.app_id === appId)?.refresh_grants).toBe(1);
  }, 30_000);
});
