import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { listeningExposure } from "@/lib/ops/exposure";

/**
 * Issue 36 item 10 and issue 37 item 7: the one exposure check. At start, a console reachable from other
 * machines without APP_ORIGIN is warned about, naming APP_ORIGIN (its default, localhost, is each teammate's
 * own machine); at its first request, the address the server really listens on is held against what HOST said
 * (lib/ops/request-guard.ts answers 503 with the reason when they disagree).
 */
const base = { SESSION_PASSWORD: "p".repeat(32), EMULATOR_ADMIN_TOKEN: "a".repeat(32), AUTH_MODE: "oidc", PORT: "3500" };

function warningsOf(env: Record<string, string>): string[] {
  const warnings: string[] = [];
  parseConfig(env, (message) => warnings.push(message));
  return warnings;
}

describe("the exposure check at start", () => {
  it("warns when HOST reaches other machines and APP_ORIGIN is not set, saying what to set it to", () => {
    const warning = warningsOf({ ...base, HOST: "0.0.0.0" }).find((w) => w.includes("APP_ORIGIN is not set"));
    expect(warning).toBeDefined();
    expect(warning).toContain("HOST 0.0.0.0 is not a loopback address");
    expect(warning).toContain("sign-in and the OAuth redirect would send them to http://localhost:3500");
    expect(warning).toMatch(/Set APP_ORIGIN to the address people open, such as http:\/\/[^:]+:3500/);
  });

  it("warns the same when ALLOWED_HOSTS names another machine's name without APP_ORIGIN", () => {
    expect(warningsOf({ ...base, ALLOWED_HOSTS: "192.0.2.2:3500" }).some((w) => w.includes("APP_ORIGIN is not set"))).toBe(true);
  });

  it("says nothing of APP_ORIGIN when it is set, or when the console is this machine's alone", () => {
    expect(warningsOf({ ...base, HOST: "0.0.0.0", APP_ORIGIN: "http://192.0.2.2:3500" }).some((w) => w.includes("APP_ORIGIN"))).toBe(false);
    expect(warningsOf({ SESSION_PASSWORD: "p".repeat(32) }).some((w) => w.includes("APP_ORIGIN"))).toBe(false);
  });
});

describe("the listening address against HOST", () => {
  const local = { host: "127.0.0.1", exposed: false };
  it("disagrees when the server listens on every interface, or a LAN address, while HOST says loopback", () => {
    expect(listeningExposure({ address: "::", family: "IPv6", port: 3611 }, local)).toMatch(/^The server listens on every interface \(::\), port 3611/);
    expect(listeningExposure({ address: "0.0.0.0", family: "IPv4", port: 3611 }, local)).toContain("every interface (0.0.0.0)");
    expect(listeningExposure({ address: "192.0.2.2", family: "IPv4", port: 3611 }, local)).toContain("listens on 192.0.2.2");
  });

  it("agrees on loopback, on a Unix socket, and whenever the configuration already says exposed", () => {
    expect(listeningExposure({ address: "127.0.0.1", family: "IPv4", port: 3611 }, local)).toBeUndefined();
    expect(listeningExposure({ address: "::1", family: "IPv6", port: 3611 }, local)).toBeUndefined();
    expect(listeningExposure("/run/switchboard.sock", local)).toBeUndefined();
    expect(listeningExposure({ address: "::", family: "IPv6", port: 3611 }, { host: "0.0.0.0", exposed: true })).toBeUndefined();
  });
});
