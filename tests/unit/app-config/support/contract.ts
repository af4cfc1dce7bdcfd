/**
 * The app settings contract: what the settings page relies on, run against each backend behind
 * lib/app-config's one interface. Every case drives the console's routes with a cookie-keeping browser,
 * as the page does; only the setup differs: the embedded emulator's admin surface (no configuration
 * token), or the App Manifest API with a pasted configuration token, against the emulator as the embedded
 * upstream or as the platform (PLATFORM_BASE_URL), where nothing emulator-only may be used.
 */
import { OPERATOR } from "@/lib/viewer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { GET as settingsRoute } from "@/app/api/app-config/apps/[appId]/route";
import { POST as exchangeRoute } from "@/app/api/app-config/apps/[appId]/exchange/route";
import { POST as rotationRoute } from "@/app/api/app-config/apps/[appId]/rotation/route";
import { POST as scopesRoute } from "@/app/api/app-config/apps/[appId]/scopes/route";
import { POST as verifyRoute } from "@/app/api/app-config/apps/[appId]/verify/route";
import { POST as tokenRoute } from "@/app/api/app-config/token/route";
import { GET as callbackRoute } from "@/app/oauth/callback/route";
import { GET as installRoute } from "@/app/oauth/install/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { defaultAppCredentials } from "@/lib/emulator";
import type { AppConfigOverview, AppSettingsView, ManifestChangeResult, MigrationExchangeResult } from "@/lib/app-config/universal/types";
import { consentAt, type TestBrowser } from "../../support/console";
import { installIn } from "../../support/install";
import { openTestStore } from "../../support/store";
import { issueConfigToken, RAW_TOKEN, REDIRECT_URI, SEED, startAppConfigConsole, type AppConfigConsole, type Upstream } from "./console";

export interface ContractSetup {
  backend: "emulator-admin" | "manifest-api";
  upstream: Upstream;
}

/** Every answer body the cases received, to check afterwards that none carries a secret. */
const bodies: string[] = [];

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  bodies.push(text);
  return JSON.parse(text) as T;
}

export function runAppConfigContract(setup: ContractSetup) {
  describe(`app settings through ${setup.backend} (${setup.upstream} upstream)`, () => {
    let console: AppConfigConsole;
    let apps: { rotation: string; legacy: string };

    beforeAll(async () => {
      console = await startAppConfigConsole(setup.upstream);
      await openTestStore();
      apps = await console.appIds();
    });
    afterAll(() => console.close());

    /** A browser of this backend: with the manifest API, a configuration token pasted as a person would. */
    async function browser(): Promise<TestBrowser> {
      const b = console.browser();
      if (setup.backend === "manifest-api") {
        const pair = await issueConfigToken(console);
        const pasted = await b.send(tokenRoute, "/api/app-config/token", { method: "POST", json: { token: pair.token, refreshToken: pair.refresh_token } });
        expect(pasted.status).toBe(200);
      }
      return b;
    }

    const settings = async (b: TestBrowser, appId: string) => {
      const response = await b.send(settingsRoute, `/api/app-config/apps/${appId}`, { params: { appId } });
      expect(response.status).toBe(200);
      return json<AppSettingsView>(response);
    };

    // Installations live in the server's store (not in the browser's cookies): the newest one of the legacy app.
    const installationId = async (_b: TestBrowser) => {
      const { getSessionInstallations } = await import("@/lib/installations/actions/list-installations");
      return (await getSessionInstallations({ viewer: OPERATOR })).filter((i) => i.appKey === "legacy").at(-1)!.id;
    };

    it("opens the app of this session's installation: name, redirect URLs, scopes, event request URL, rotation on, credentials masked", async () => {
      const b = await browser();
      expect((await installIn(b)).status).toBe(303);
      const overview = await json<AppConfigOverview>(await b.send(overviewRoute, "/api/app-config"));
      expect(overview.backend).toBe(setup.backend);
      expect(overview.defaultAppId).toBe(apps.rotation);
      expect(overview.apps).toContainEqual(expect.objectContaining({ appId: apps.rotation, source: "installation" }));

      const app = await settings(b, apps.rotation);
      const secrets = defaultAppCredentials(SEED, "rotation");
      expect(app).toMatchObject({
        backend: setup.backend,
        appId: apps.rotation,
        name: "Switchboard Rotation",
        tokenRotationEnabled: true,
        redirectUrls: expect.arrayContaining([REDIRECT_URI]),
        scopes: { bot: expect.arrayContaining(["chat:write", "incoming-webhook"]), user: expect.arrayContaining(["users:read"]) },
        events: { requestUrl: expect.stringContaining("/api/events"), botEvents: ["app_mention"] },
        credentials: { clientId: secrets.clientId, clientSecret: `…${secrets.clientSecret.slice(-4)}`, signingSecret: `…${secrets.signingSecret.slice(-4)}` },
      });
      expect(app.manifest).toMatchObject({ display_information: { name: "Switchboard Rotation" }, settings: { token_rotation_enabled: true } });
      expect(app.installations).toEqual([
        expect.objectContaining({ appKey: "console", tokens: expect.arrayContaining([expect.objectContaining({ kind: "bot", rotating: true })]) }),
      ]);
    });

    it("changes the scopes in the manifest, then a reinstall with the new scopes grants them", async () => {
      const b = await browser();
      expect((await installIn(b)).status).toBe(303);
      const before = await settings(b, apps.rotation);
      const bot = [...before.scopes.bot, "reactions:read"];
      const user = [...before.scopes.user, "reactions:read"];
      const response = await b.send(scopesRoute, `/api/app-config/apps/${apps.rotation}/scopes`, {
        method: "POST",
        json: { bot, user },
        params: { appId: apps.rotation },
      });
      expect(response.status).toBe(200);
      const changed = await json<ManifestChangeResult>(response);
      expect(changed.permissionsUpdated).toBe(true);
      expect(changed.settings.scopes).toEqual({ bot, user });
      expect(changed.settings.manifest).toMatchObject({ oauth_config: { scopes: { bot, user } } });

      const href = new URL(changed.settings.installations[0]!.reinstallHref, console.origin);
      expect(href.pathname).toBe("/oauth/install");
      expect(href.searchParams.get("scope")?.split(",")).toEqual(bot);
      expect(href.searchParams.get("user_scope")?.split(",")).toEqual(user);

      const start = await b.send(installRoute, href.pathname + href.search);
      const callback = new URL(await consentAt(start.headers.get("location")!));
      expect((await b.send(callbackRoute, callback.pathname + callback.search)).status).toBe(303);
      const session = await json<{ installations: { bot: { scopes: string[] }; user: { scopes: string[] } }[] }>(await b.send(sessionRoute, "/api/session"));
      expect(session.installations[0]!.bot.scopes).toContain("reactions:read");
      expect(session.installations[0]!.user.scopes).toContain("reactions:read");
    });

    it("refuses a scope the platform does not have for that kind of token, names each, and changes nothing", async () => {
      const b = await browser();
      const before = await settings(b, apps.rotation);
      const response = await b.send(scopesRoute, `/api/app-config/apps/${apps.rotation}/scopes`, {
        method: "POST",
        json: { bot: [...before.scopes.bot, "not-a-scope", "search:read"], user: [...before.scopes.user, "chat:write.public"] },
        params: { appId: apps.rotation },
      });
      expect(response.status).toBe(400);
      const refused = await json<{ error: string; message: string }>(response);
      expect(refused.error).toBe("invalid_scope");
      expect(refused.message).toContain("not-a-scope is not a scope the platform knows");
      expect(refused.message).toContain("search:read is a scope for user tokens, not a bot token scope");
      expect(refused.message).toContain("chat:write.public is a scope for bot tokens, not a user token scope");
      expect(refused.message).toContain("Nothing was saved.");
      expect((await settings(b, apps.rotation)).scopes).toEqual(before.scopes);
      // Neither can an install ask the emulator for it.
      const authorize = await b.send(installRoute, `/oauth/install?scope=${encodeURIComponent([...before.scopes.bot, "not-a-scope"].join(","))}`);
      const consent = await fetch(authorize.headers.get("location")!);
      expect(consent.status).toBe(400);
      expect(await consent.text()).toContain("invalid_scope");
    });

    it("answers 404 app_not_found for an app the backend does not know, and 422 for what is not an app id", async () => {
      const b = await browser();
      const unknown = await b.send(settingsRoute, "/api/app-config/apps/A0NOSUCHAPP", { params: { appId: "A0NOSUCHAPP" } });
      expect(unknown.status).toBe(404);
      expect((await json<{ error: string }>(unknown)).error).toBe("app_not_found");
      const malformed = await b.send(settingsRoute, "/api/app-config/apps/x", { params: { appId: "x" } });
      expect(malformed.status).toBe(422);
    });

    it("shows the request URL's verification and verifies again where the backend can, and says so where it cannot", async () => {
      const b = await browser();
      const app = await settings(b, apps.rotation);
      const response = await b.send(verifyRoute, `/api/app-config/apps/${apps.rotation}/verify`, {
        method: "POST",
        json: {},
        params: { appId: apps.rotation },
      });
      if (setup.backend === "emulator-admin") {
        expect(app.events.canVerify).toBe(true);
        expect(app.events.verification).toMatchObject({ url: app.events.requestUrl, state: expect.stringMatching(/verified|pending/) });
        expect(response.status).toBe(200);
        expect((await json<AppSettingsView>(response)).events.verification).toMatchObject({ state: "verified", failure: null });
      } else {
        // The platform's App Manifest API reports no verification and cannot send a challenge.
        expect(app.events.canVerify).toBe(false);
        expect(app.events.verification).toBeUndefined();
        expect(response.status).toBe(409);
        expect(await json<{ error: string; message: string }>(response)).toMatchObject({
          error: "verify_not_available",
          message: expect.stringContaining("Event Subscriptions"),
        });
      }
    });

    it("refuses state changes from another site", async () => {
      const b = await browser();
      const response = await b.send(rotationRoute, `/api/app-config/apps/${apps.legacy}/rotation`, {
        method: "POST",
        json: { confirm: true },
        headers: { origin: "https://evil.example" },
        params: { appId: apps.legacy },
      });
      expect(response.status).toBe(403);
    });

    it("walks the rotation migration guide for the legacy app: rotation on only when confirmed and for good, each long-lived token exchanged once, the original then refused by auth.test", async () => {
      const b = await browser();
      // Only the embedded emulator's console installs the legacy app; against the platform the guide starts at step 1 all the same.
      const legacyInstalled = setup.upstream === "emulator";
      if (legacyInstalled) expect((await installIn(b, "?app=legacy")).status).toBe(303);
      let app = await settings(b, apps.legacy);
      expect(app.tokenRotationEnabled).toBe(false);
      if (legacyInstalled)
        expect(app.installations[0]!.tokens.map((t) => [t.kind, t.rotating])).toEqual([
          ["bot", false],
          ["user", false],
        ]);

      // Step 1: irreversible, so only when confirmed.
      const rotation = (json: unknown) =>
        b.send(rotationRoute, `/api/app-config/apps/${apps.legacy}/rotation`, { method: "POST", json, params: { appId: apps.legacy } });
      expect((await rotation({})).status).toBe(422);
      expect((await settings(b, apps.legacy)).tokenRotationEnabled).toBe(false);
      const turned = await rotation({ confirm: true });
      expect(turned.status).toBe(200);
      const result = await json<ManifestChangeResult>(turned);
      expect(result.permissionsUpdated).toBe(false);
      expect(result.settings).toMatchObject({ tokenRotationEnabled: true, manifest: { settings: { token_rotation_enabled: true } } });
      // What the platform itself now says, whoever asks.
      const { apps: listed } = await console.admin<{ apps: { app_id: string; token_rotation_enabled: boolean }[] }>("apps");
      expect(listed.find((a) => a.app_id === apps.legacy)?.token_rotation_enabled).toBe(true);
      if (!legacyInstalled) return;

      // Steps 2 and 4: each token exchanged once, and the original tried with auth.test right away.
      const id = await installationId(b);
      const exchange = (kind: "bot" | "user") =>
        b.send(exchangeRoute, `/api/app-config/apps/${apps.legacy}/exchange`, {
          method: "POST",
          json: { installation: id, token: kind, confirm: true },
          params: { appId: apps.legacy },
        });
      for (const kind of ["bot", "user"] as const) {
        const response = await exchange(kind);
        expect(response.status).toBe(200);
        const exchanged = await json<MigrationExchangeResult>(response);
        expect(exchanged.original.authTest).toEqual({ ok: false, error: "token_expired" });
        expect(exchanged.original.masked).toMatch(kind === "bot" ? /^xoxb-…/ : /^xoxp-…/);
        expect(exchanged.replacement).toMatchObject({
          masked: expect.stringMatching(/^xoxe\.xox[bp]-…/),
          authTest: { ok: true, error: null },
          expiresAt: expect.any(Number),
        });
        app = exchanged.settings;
      }
      expect(app.installations[0]!.tokens.every((t) => t.rotating)).toBe(true);
      // Step 3, as the emulator recorded it: each original exchanged, not revoked; each new token active.
      const recorded = app.installations[0]!.emulatorTokens!;
      expect(recorded.filter((t) => !t.rotating).map((t) => t.state)).toEqual(["exchanged", "exchanged"]);
      expect(recorded.filter((t) => t.rotating && t.state === "active")).toHaveLength(2);

      const again = await exchange("bot");
      expect(again.status).toBe(409);
      expect((await json<{ error: string }>(again)).error).toBe("already_rotating");
    });

    it("never answers a token, a refresh token or an app secret", () => {
      const { clientSecret, signingSecret } = defaultAppCredentials(SEED, "rotation");
      const legacy = defaultAppCredentials(SEED, "legacy");
      expect(bodies.length).toBeGreaterThan(10);
      for (const body of bodies) {
        expect(body).not.toMatch(RAW_TOKEN);
        for (const secret of [clientSecret, signingSecret, legacy.clientSecret, legacy.signingSecret]) expect(body).not.toContain(secret);
      }
    });
  });
}
