import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAppCredentials, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { advanceEmulatorClock } from "@/lib/emulator-admin/client";
import { isConsoleError } from "@/lib/http/app-error";

/**
 * The console's admin calls to a standalone emulator (PLATFORM_BASE_URL), a separate server over HTTP: the
 * console's EMULATOR_ADMIN_TOKEN is sent only because it was set, and an emulator holding another token
 * (or none, so that it refuses any bearer) is said plainly rather than as an unreachable emulator.
 */
const TOKEN = randomBytes(32).toString("base64url");
let sameToken: EmulatorServer;
let otherToken: EmulatorServer;

beforeAll(async () => {
  sameToken = await startEmulatorServer({ seed: "standalone-admin", admin: { token: TOKEN } });
  otherToken = await startEmulatorServer({ seed: "standalone-admin", admin: { token: randomBytes(32).toString("base64url") } });
  const app = defaultAppCredentials("standalone-admin", "rotation");
  Object.assign(process.env, {
    PLATFORM_BASE_URL: sameToken.url,
    CLIENT_ID: app.clientId,
    CLIENT_SECRET: app.clientSecret,
    SESSION_PASSWORD: randomBytes(32).toString("base64url"),
    EMULATOR_ADMIN_TOKEN: TOKEN,
    LOG_LEVEL: "silent",
  });
});
afterAll(async () => {
  await Promise.all([sameToken.close(), otherToken.close()]);
});

describe("the console's admin calls to a standalone emulator", () => {
  it("moves the clock of an emulator that shares its token", async () => {
    const emulatorNow = await advanceEmulatorClock({ baseUrl: sameToken.url, timeoutMs: 5000 }, 3600);
    expect(emulatorNow - Date.now()).toBeGreaterThan(3500 * 1000);
    expect(sameToken.emulator.clock.now() - Date.now()).toBeGreaterThan(3500 * 1000);
  });

  it("says the credentials differ when the emulator holds another token, and moves nothing", async () => {
    const before = otherToken.emulator.clock.now() - Date.now();
    const refused = await advanceEmulatorClock({ baseUrl: otherToken.url, timeoutMs: 5000 }, 3600).catch((error: unknown) => error);
    expect(isConsoleError(refused, "emulator_admin_refused")).toBe(true);
    expect((refused as Error).message).toContain("the same EMULATOR_ADMIN_TOKEN");
    expect(Math.abs(otherToken.emulator.clock.now() - Date.now() - before)).toBeLessThan(1000);
  });
});
