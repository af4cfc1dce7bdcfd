/**
 * @slack/oauth's InstallProvider, the platform's official OAuth library, installs an app through the
 * emulator and keeps its rotating tokens fresh, unchanged: its install page, state cookie and callback are
 * served by a real HTTP server of the "app", the emulator is its authorization server and Web API.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { InstallProvider, LogLevel, type Installation, type InstallationQuery } from "@slack/oauth";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import type { Json } from "./support/emulator-harness";

let emulator: EmulatorServer;
let app: Server;
let appUrl: string;
let installer: InstallProvider;
const installations = new Map<string, Installation>();

async function admin(path: string, body?: unknown): Promise<Json> {
  const headers = { origin: new URL(emulator.url).origin, "content-type": "application/json" };
  const init = body === undefined ? {} : { method: "POST", headers, body: JSON.stringify(body) };
  return (await (await fetch(`${emulator.url}/admin/${path}`, init)).json()) as Json;
}

beforeAll(async () => {
  app = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://app").pathname;
    if (path === "/slack/install") void installer.handleInstallPath(req, res);
    else if (path === "/slack/oauth_redirect") void installer.handleCallback(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  emulator = await startEmulatorServer({ port: 0, users: 50, seed: "official-oauth", redirectUrls: [`${appUrl}/slack/oauth_redirect`] });

  const rotation = ((await admin("apps")).apps as Json[]).find((a) => a.token_rotation_enabled);
  if (!rotation) throw new Error("the emulator has no app with token rotation");
  installer = new InstallProvider({
    clientId: rotation.client_id,
    clientSecret: rotation.client_secret,
    stateSecret: "a state secret for the test app",
    authorizationUrl: `${emulator.url}/oauth/v2/authorize`,
    // Straight to the authorize URL, as an app's "Add to workspace" button does, rather than a page with a link.
    directInstall: true,
    clientOptions: { slackApiUrl: `${emulator.url}/api/`, retryConfig: { retries: 0 } },
    logLevel: LogLevel.ERROR,
    installUrlOptions: {
      scopes: ["users:read", "chat:write"],
      userScopes: ["users:read"],
      redirectUri: `${appUrl}/slack/oauth_redirect`,
    },
    installationStore: {
      storeInstallation: async (installation) => {
        installations.set(installation.team?.id ?? "", installation);
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
});

afterAll(async () => {
  await new Promise((resolve) => app?.close(resolve));
  await emulator?.close();
});

describe("@slack/oauth InstallProvider against the emulator over HTTP", () => {
  it("installs through the consent page with its own state cookie, then refreshes an expiring token", async () => {
    // The install page sets the state cookie and sends the browser to the emulator's authorize URL.
    const install = await fetch(`${appUrl}/slack/install`, { redirect: "manual" });
    expect(install.status).toBe(302);
    const stateCookie = install.headers.getSetCookie().find((c) => c.startsWith("slack-app-oauth-state="));
    expect(stateCookie).toBeDefined();
    const authorize = install.headers.get("location") ?? "";
    expect(authorize.startsWith(`${emulator.url}/oauth/v2/authorize?`)).toBe(true);

    // A person clicks Allow on the consent page.
    const page = await fetch(authorize);
    expect(page.status).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1]?.replace(/&amp;/g, "&") ?? "";
    const allowed = await fetch(new URL(action, authorize), { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
    expect(allowed.status).toBe(302);
    const callback = allowed.headers.get("location") ?? "";
    expect(callback.startsWith(`${appUrl}/slack/oauth_redirect?`)).toBe(true);

    // The library checks the state against its cookie, exchanges the code and stores the installation.
    const done = await fetch(callback, { headers: { cookie: (stateCookie ?? "").split(";")[0] ?? "" } });
    expect(done.status).toBe(200);
    expect(installations.size).toBe(1);
    const [installation] = [...installations.values()];
    expect(installation?.bot?.token).toMatch(/^xoxe\.xoxb-/);
    expect(installation?.bot?.refreshToken).toMatch(/^xoxe-/);
    expect(installation?.user.token).toMatch(/^xoxe\.xoxp-/);
    const teamId = installation?.team?.id ?? "";

    // Eleven hours on, on both sides: the library refreshes tokens that expire within two hours.
    await admin("clock", { advance_s: 11 * 3600 });
    for (const kind of ["bot", "user"] as const) {
      const stored = installations.get(teamId)?.[kind];
      if (stored) stored.expiresAt = Math.floor(Date.now() / 1000) + 3600;
    }
    const authorized = await installer.authorize({ teamId, enterpriseId: undefined, isEnterpriseInstall: false });
    expect(authorized.botToken).toMatch(/^xoxe\.xoxb-/);
    expect(authorized.botToken).not.toBe(installation?.bot?.token);
    expect(installations.get(teamId)?.bot?.refreshToken).not.toBe(installation?.bot?.refreshToken);

    // The refreshed token works; the emulator served one grant per token kind.
    const test = await new WebClient(authorized.botToken, { slackApiUrl: `${emulator.url}/api/` }).auth.test();
    expect(test.ok).toBe(true);
    const state = await admin("state");
    expect(state.installations[0].refresh_grants).toBe(2);
    expect(state.installations[0].refresh_requests).toBe(2);
  });
});
