import { afterEach, describe, expect, it, vi } from "vitest";

async function loadWithEnv(env: Record<string, string | undefined>) {
  vi.resetModules();
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value as string);
  return import("@/lib/embedded-emulator");
}

describe("the embedded emulator's mount", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("serves the emulator at /emulator while it is the upstream", async () => {
    const { handleEmbeddedEmulatorRequest } = await loadWithEnv({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3999",
      SESSION_PASSWORD: "x".repeat(32),
    });
    const response = await handleEmbeddedEmulatorRequest(new Request("http://localhost:3999/emulator/api/auth.test"));
    expect(await response.json()).toEqual({ ok: false, error: "not_authed" });
  });

  it("is the issuer of its sign-ins at {APP_ORIGIN}/emulator, whatever Host the request names", async () => {
    const { handleEmbeddedEmulatorRequest } = await loadWithEnv({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3999",
      SESSION_PASSWORD: "x".repeat(32),
    });
    const response = await handleEmbeddedEmulatorRequest(new Request("http://127.0.0.1:3999/emulator/.well-known/openid-configuration"));
    expect(await response.json()).toMatchObject({
      issuer: "http://localhost:3999/emulator",
      authorization_endpoint: "http://localhost:3999/emulator/openid/connect/authorize",
      jwks_uri: "http://localhost:3999/emulator/openid/connect/keys",
    });
  });

  it("lets no one aim the apps' event deliveries anywhere but the console's own /api/events", async () => {
    const { handleEmbeddedEmulatorRequest } = await loadWithEnv({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3999",
      SESSION_PASSWORD: "x".repeat(32),
    });
    const apps = (await (await handleEmbeddedEmulatorRequest(new Request("http://localhost:3999/emulator/admin/apps"))).json()) as {
      apps: Array<{ manifest: { settings?: Record<string, unknown> } }>;
    };
    const manifest = apps.apps[0]!.manifest;
    const aimAt = (requestUrl: string) =>
      handleEmbeddedEmulatorRequest(
        new Request("http://localhost:3999/emulator/admin/apps", {
          method: "POST",
          headers: { origin: "http://localhost:3999", "content-type": "application/json" },
          body: JSON.stringify({
            ...manifest,
            settings: { ...manifest.settings, event_subscriptions: { request_url: requestUrl, bot_events: ["app_mention"] } },
          }),
        }),
      );
    for (const elsewhere of ["http://127.0.0.1:8080/admin", "http://localhost:3999/api/events/../session", "http://169.254.169.254/latest/meta-data"]) {
      const refused = await aimAt(elsewhere);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: "invalid_manifest" });
    }
    expect((await aimAt("http://localhost:3999/api/events")).status).toBe(200);
  });

  it("answers the console's own origin on its admin surface, and refuses another site's", async () => {
    const { handleEmbeddedEmulatorRequest } = await loadWithEnv({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3999",
      SESSION_PASSWORD: "x".repeat(32),
    });
    // Next.js may hand the route another host name than APP_ORIGIN's (127.0.0.1 as localhost, or the reverse).
    const reset = (origin: string) =>
      handleEmbeddedEmulatorRequest(
        new Request("http://127.0.0.1:3999/emulator/admin/reset", { method: "POST", headers: { origin, "content-type": "application/json" }, body: "{}" }),
      );
    const refused = await reset("https://evil.example");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, error: "forbidden_origin" });
    expect((await reset("http://localhost:3999")).status).toBe(200);
  });

  it("exposed, answers its admin surface only with the token, and the console still reads it in-process with that token", async () => {
    const token = "t".repeat(43);
    // The process's embedded emulator was made by the tests above, with the loopback configuration.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.embeddedEmulator")];
    const { handleEmbeddedEmulatorRequest, getEmbeddedEmulator } = await loadWithEnv({
      PLATFORM_BASE_URL: "",
      APP_ORIGIN: "http://localhost:3999",
      SESSION_PASSWORD: "x".repeat(32),
      HOST: "0.0.0.0",
      EMULATOR_ADMIN_TOKEN: token,
      AUTH_MODE: "oidc",
    });
    getEmbeddedEmulator();
    // A browser on the console's own page, as a person on the network has one.
    const refused = await handleEmbeddedEmulatorRequest(
      new Request("http://localhost:3999/emulator/admin/apps", { headers: { host: "localhost:3999", "sec-fetch-site": "same-origin" } }),
    );
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ ok: false, error: "admin_token_required" });
    const scripted = await handleEmbeddedEmulatorRequest(
      new Request("http://localhost:3999/emulator/admin/apps", { headers: { authorization: `Bearer ${token}` } }),
    );
    expect(scripted.status).toBe(200);
    // No server listens here: the console's own call is a function call, with the token.
    const { readEmulatorMethods } = await import("@/lib/emulator-admin/client");
    const { requireUpstreamEmulator } = await import("@/lib/upstream-emulator");
    const methods = await readEmulatorMethods(await requireUpstreamEmulator("the embedded emulator is the upstream here"));
    expect(methods).toContainEqual(expect.objectContaining({ name: "users.list", paginated: true }));
  });

  it("answers 404, admin surface included, once a real platform is configured", async () => {
    const { handleEmbeddedEmulatorRequest } = await loadWithEnv({
      PLATFORM_BASE_URL: "https://slack.com",
      CLIENT_ID: "1.2",
      CLIENT_SECRET: "s",
      SESSION_PASSWORD: "x".repeat(32),
    });
    for (const path of ["/emulator/api/auth.test", "/emulator/admin/state", "/emulator/admin/reset"]) {
      const response = await handleEmbeddedEmulatorRequest(new Request(`http://localhost:3000${path}`, { method: "POST" }));
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("https://slack.com");
    }
  });
});
