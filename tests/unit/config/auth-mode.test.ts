import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

const PASSWORD = "p".repeat(32);
const ADMIN_TOKEN = "t".repeat(40);
const EXPOSED = { SESSION_PASSWORD: PASSWORD, HOST: "0.0.0.0", EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN, APP_ORIGIN: "https://console.example.com" };

function refusal(env: Record<string, string>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("who may use the console (AUTH_MODE)", () => {
  it("lets the person at the machine in without signing in on loopback, as before", () => {
    const config = parseConfig({ SESSION_PASSWORD: PASSWORD });
    expect(config.auth).toEqual({ mode: "none", adminUsers: [], redirectUri: "http://localhost:3000/auth/callback" });
  });

  it("refuses to start exposed without AUTH_MODE, naming both ways out and the redirect URL to register", () => {
    const message = refusal(EXPOSED);
    expect(message).toContain("AUTH_MODE is not set and HOST 0.0.0.0 is not a loopback address");
    expect(message).toContain("Set AUTH_MODE=oidc");
    expect(message).toContain("https://console.example.com/auth/callback");
    expect(message).toContain("AUTH_MODE=none");
    expect(message).toContain("unsafe");
    // A proxy in front of a console on loopback exposes it just the same.
    expect(refusal({ SESSION_PASSWORD: PASSWORD, APP_ORIGIN: "https://console.example.com", EMULATOR_ADMIN_TOKEN: ADMIN_TOKEN })).toContain(
      "AUTH_MODE is not set and APP_ORIGIN https://console.example.com names a host beyond this machine",
    );
  });

  it("starts exposed with AUTH_MODE=none when told so, warning that anyone who reaches it is the operator", () => {
    const warnings: string[] = [];
    const config = parseConfig({ ...EXPOSED, AUTH_MODE: "none" }, (m) => warnings.push(m));
    expect(config.auth.mode).toBe("none");
    expect(warnings.join("\n")).toContain("AUTH_MODE=none and HOST 0.0.0.0 is not a loopback address: anyone who reaches the console acts as its operator");
  });

  it("signs people in with AUTH_MODE=oidc, at {APP_ORIGIN}/auth/callback unless SIGN_IN_REDIRECT_URI says otherwise", () => {
    expect(parseConfig({ ...EXPOSED, AUTH_MODE: "oidc" }).auth).toMatchObject({ mode: "oidc", redirectUri: "https://console.example.com/auth/callback" });
    expect(parseConfig({ ...EXPOSED, AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI: "https://console.example.com/signin/back" }).auth.redirectUri).toBe(
      "https://console.example.com/signin/back",
    );
    expect(refusal({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "password" })).toContain("AUTH_MODE: must be oidc (people sign in with the platform) or none");
  });

  it("warns that the embedded emulator's sign-in lets anyone pick who they are, when the console is exposed; not against the platform", () => {
    const warnings: string[] = [];
    parseConfig({ ...EXPOSED, AUTH_MODE: "oidc" }, (m) => warnings.push(m));
    expect(warnings.join("\n")).toContain("the emulator's sign-in page lets anyone pick who they are, an ADMIN_USERS member too");
    const platform: string[] = [];
    parseConfig(
      {
        ...EXPOSED,
        AUTH_MODE: "oidc",
        PLATFORM_BASE_URL: "https://slack.example.com",
        CLIENT_ID: "1.2",
        CLIENT_SECRET: "s".repeat(32),
        SIGNING_SECRET: "g".repeat(32),
      },
      (m) => platform.push(m),
    );
    expect(platform.join("\n")).not.toContain("lets anyone pick who they are");
    // On this machine only, trying the flow: no warning.
    const local: string[] = [];
    parseConfig({ SESSION_PASSWORD: PASSWORD, AUTH_MODE: "oidc" }, (m) => local.push(m));
    expect(local.join("\n")).not.toContain("lets anyone pick who they are");
  });

  it("reads ADMIN_USERS as user ids, and refuses anything else with where to find one", () => {
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD, ADMIN_USERS: "U0123ABCD, W0456EFGH,U0123ABCD" }).auth.adminUsers).toEqual(["U0123ABCD", "W0456EFGH"]);
    const message = refusal({ SESSION_PASSWORD: PASSWORD, ADMIN_USERS: "U0123ABCD,alice@example.com" });
    expect(message).toContain('ADMIN_USERS must list user ids (such as U0123ABCD, comma-separated), not "alice@example.com"');
  });
});
