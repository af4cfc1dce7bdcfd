import { describe, expect, it } from "vitest";
import { ConfigError, isExposedHost, parseConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator";

const PASSWORD = "p".repeat(32);

function parse(env: Record<string, string | undefined>) {
  const warnings: string[] = [];
  const config = parseConfig(env, (message) => warnings.push(message));
  return { config, warnings };
}

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("configuration", () => {
  it("defaults to the embedded emulator at this server's /emulator, with its rotation app's credentials", () => {
    const { config } = parse({ SESSION_PASSWORD: PASSWORD, PORT: "4123" });
    const app = defaultAppCredentials("switchboard", "rotation");
    expect(config.upstream).toEqual({ kind: "emulator", baseUrl: "http://localhost:4123/emulator" });
    expect(config.clientId).toBe(app.clientId);
    expect(config.clientSecret).toBe(app.clientSecret);
    expect(config.signingSecret).toBe(app.signingSecret);
    const legacy = defaultAppCredentials("switchboard", "legacy");
    expect(config.eventSigners).toEqual([
      { signingSecret: app.signingSecret, appId: app.appId, appName: "Switchboard Rotation" },
      { signingSecret: legacy.signingSecret, appId: legacy.appId, appName: "Switchboard Legacy" },
    ]);
    expect(config.redirectUri).toBe("http://localhost:4123/oauth/callback");
  });

  it("points at the real platform with PLATFORM_BASE_URL and requires the app's credentials, saying where they are", () => {
    const message = problemsOf({ SESSION_PASSWORD: PASSWORD, PLATFORM_BASE_URL: "https://slack.com" });
    expect(message).toContain("CLIENT_ID is required when PLATFORM_BASE_URL is set");
    expect(message).toContain("CLIENT_SECRET is required");
    const { config } = parse({
      SESSION_PASSWORD: PASSWORD,
      PLATFORM_BASE_URL: "https://slack.com/",
      CLIENT_ID: "1.2",
      CLIENT_SECRET: "s",
      SIGNING_SECRET: "x",
    });
    expect(config.upstream).toEqual({ kind: "platform", baseUrl: "https://slack.com" });
    expect(config.eventSigners).toEqual([{ signingSecret: "x", appId: null, appName: null }]);
  });

  it("refuses to start in production without SESSION_PASSWORD and says how to make one", () => {
    const message = problemsOf({ NODE_ENV: "production" });
    expect(message).toContain("SESSION_PASSWORD is missing");
    expect(message).toContain("randomBytes(32)");
  });

  it("generates a session password in development, with a warning", () => {
    const { config, warnings } = parse({ NODE_ENV: "development" });
    expect(Object.values(config.sessionPasswords)[0]?.length).toBeGreaterThanOrEqual(32);
    expect(warnings.join("\n")).toContain("SESSION_PASSWORD is not set");
  });

  it("takes several session passwords, newest first: the newest seals (highest id), all unseal", () => {
    const newer = "n".repeat(40);
    const older = "o".repeat(40);
    const { config } = parse({ SESSION_PASSWORD: `${newer}, ${older}` });
    expect(config.sessionPasswords).toEqual({ "2": newer, "1": older });
    expect(problemsOf({ SESSION_PASSWORD: `${newer},short` })).toContain("SESSION_PASSWORD entry 2 is shorter than 32 characters");
  });

  it("reads empty strings as unset and explains a bad URL or number", () => {
    const { config } = parse({ SESSION_PASSWORD: PASSWORD, PLATFORM_BASE_URL: "  ", CLIENT_ID: "" });
    expect(config.upstream.kind).toBe("emulator");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, PLATFORM_BASE_URL: "slack.com" })).toContain("PLATFORM_BASE_URL");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, PLATFORM_BASE_URL: "ftp://slack.com" })).toContain("must use http or https");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, REFRESH_WINDOW_S: "soon" })).toContain("REFRESH_WINDOW_S");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, REDIS_URL: "localhost:6379" })).toContain("REDIS_URL");
  });

  it("marks cookies Secure when the console is served over https", () => {
    expect(
      parse({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc", APP_ORIGIN: "https://console.example.com", EMULATOR_ADMIN_TOKEN: "t".repeat(40) }).config
        .secureCookies,
    ).toBe(true);
    expect(parse({ SESSION_PASSWORD: PASSWORD }).config.secureCookies).toBe(false);
  });

  it("warns in production when the emulator's signing secret comes from the public default seed", () => {
    const defaulted = parse({ NODE_ENV: "production", SESSION_PASSWORD: PASSWORD });
    expect(defaulted.warnings.join("\n")).toContain("Set EMULATOR_SEED to a private value");
    const seeded = parse({ NODE_ENV: "production", SESSION_PASSWORD: PASSWORD, EMULATOR_SEED: "a private seed" });
    expect(seeded.warnings).toEqual([]);
    expect(seeded.config.signingSecret).toBe(defaultAppCredentials("a private seed", "rotation").signingSecret);
  });

  it("takes the platform's refresh grace period from REFRESH_GRACE_S, else the embedded emulator's, else 60 s", () => {
    const platform = { SESSION_PASSWORD: PASSWORD, PLATFORM_BASE_URL: "https://slack.com", CLIENT_ID: "id", CLIENT_SECRET: "secret" };
    expect(parse(platform).config.refreshGraceS).toBe(60);
    expect(parse({ ...platform, REFRESH_GRACE_S: "30" }).config.refreshGraceS).toBe(30);
    expect(parse({ SESSION_PASSWORD: PASSWORD }).config.refreshGraceS).toBe(60);
    expect(parse({ SESSION_PASSWORD: PASSWORD, EMULATOR_REFRESH_GRACE_S: "5" }).config.refreshGraceS).toBe(5);
    expect(parse({ SESSION_PASSWORD: PASSWORD, EMULATOR_REFRESH_GRACE_S: "5", REFRESH_GRACE_S: "0" }).config.refreshGraceS).toBe(0);
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, REFRESH_GRACE_S: "-1" })).toContain("REFRESH_GRACE_S");
  });

  it("listens on 127.0.0.1 by default, and counts any HOST but a loopback address as exposed", () => {
    const { config } = parse({ SESSION_PASSWORD: PASSWORD });
    expect(config.host).toBe("127.0.0.1");
    expect(config.exposed).toBe(false);
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isExposedHost(host)).toBe(false);
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "console.example"]) expect(isExposedHost(host)).toBe(true);
    const token = "a".repeat(40);
    expect(parse({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc", HOST: "0.0.0.0", EMULATOR_ADMIN_TOKEN: token }).config).toMatchObject({
      host: "0.0.0.0",
      exposed: true,
      emulator: { adminToken: token },
    });
  });

  it("requires EMULATOR_ADMIN_TOKEN when exposed with the embedded emulator, and says how to make one", () => {
    const message = problemsOf({ SESSION_PASSWORD: PASSWORD, HOST: "0.0.0.0" });
    expect(message).toContain("EMULATOR_ADMIN_TOKEN is missing");
    expect(message).toContain(".env.local");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, HOST: "0.0.0.0", EMULATOR_ADMIN_TOKEN: "short" })).toContain("EMULATOR_ADMIN_TOKEN is shorter than 32");
    // Against the real platform there is no emulator to guard.
    const platform = { PLATFORM_BASE_URL: "https://slack.com", CLIENT_ID: "1.2", CLIENT_SECRET: "s" };
    expect(parse({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc", HOST: "0.0.0.0", ...platform }).config.exposed).toBe(true);
    // On loopback the console still has a token for its own calls: made for the process when none is set.
    expect(parse({ SESSION_PASSWORD: PASSWORD }).config.emulator.adminToken.length).toBeGreaterThanOrEqual(32);
  });

  it("counts a console on loopback behind a proxy as exposed: APP_ORIGIN or ALLOWED_HOSTS naming a host beyond this machine", () => {
    const proxied = problemsOf({ SESSION_PASSWORD: PASSWORD, APP_ORIGIN: "https://console.example.com" });
    expect(proxied).toContain("EMULATOR_ADMIN_TOKEN is missing: APP_ORIGIN https://console.example.com names a host beyond this machine");
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, ALLOWED_HOSTS: "console.internal" })).toContain("ALLOWED_HOSTS names console.internal");
    const token = "t".repeat(40);
    expect(
      parse({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc", APP_ORIGIN: "https://console.example.com", EMULATOR_ADMIN_TOKEN: token }).config.exposed,
    ).toBe(true);
    expect(parse({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc", ALLOWED_HOSTS: "10.0.0.5:3000", EMULATOR_ADMIN_TOKEN: token }).config.exposed).toBe(true);
    expect(parse({ SESSION_PASSWORD: PASSWORD, APP_ORIGIN: "http://127.0.0.1:3000", ALLOWED_HOSTS: "localhost:3001" }).config.exposed).toBe(false);
  });

  it("answers APP_ORIGIN's host, ALLOWED_HOSTS and this machine's loopback names on its port", () => {
    const { config } = parse({
      SESSION_PASSWORD: PASSWORD,
      AUTH_MODE: "oidc",
      PORT: "4123",
      APP_ORIGIN: "https://console.example.com",
      ALLOWED_HOSTS: "Console.Internal, 10.0.0.5:4123",
      EMULATOR_ADMIN_TOKEN: "t".repeat(40),
    });
    expect(config.allowedHosts).toEqual(["console.example.com", "console.internal", "10.0.0.5:4123", "localhost:4123", "127.0.0.1:4123", "[::1]:4123"]);
    expect(parse({ SESSION_PASSWORD: PASSWORD }).config.allowedHosts).toEqual(["localhost:3000", "127.0.0.1:3000", "[::1]:3000"]);
  });

  it("takes the client address from X-Forwarded-For only for as many proxies as TRUSTED_PROXY says", () => {
    expect(parse({ SESSION_PASSWORD: PASSWORD }).config.trustedProxyHops).toBe(0);
    expect(parse({ SESSION_PASSWORD: PASSWORD, TRUSTED_PROXY: "yes" }).config.trustedProxyHops).toBe(1);
    expect(parse({ SESSION_PASSWORD: PASSWORD, TRUSTED_PROXY: "2" }).config.trustedProxyHops).toBe(2);
    expect(parse({ SESSION_PASSWORD: PASSWORD, TRUSTED_PROXY: "off" }).config.trustedProxyHops).toBe(0);
    expect(problemsOf({ SESSION_PASSWORD: PASSWORD, TRUSTED_PROXY: "nginx" })).toContain("TRUSTED_PROXY");
  });
});
