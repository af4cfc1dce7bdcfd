import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isExposedHost, parseConfig } from "@/lib/config";
import { createEmulator, EMULATOR_MOUNT_PATH, isLoopbackHost } from "@/lib/emulator";

const PASSWORD = "p".repeat(32);

// The console's configuration does not import the emulator (lib/emulator-defaults.ts): what it assumes of the
// embedded one is held to what the emulator does here.
describe("the console's defaults for the embedded emulator", () => {
  it("are the credentials of the apps the embedded emulator is made with, whatever the seed", () => {
    for (const seed of [undefined, "a private seed", "session-tests"]) {
      const config = parseConfig({ SESSION_PASSWORD: PASSWORD, EMULATOR_SEED: seed });
      // As lib/emulator/adapters/embedded.ts makes it: from the configuration's seed.
      const apps = [...createEmulator({ seed: config.emulator.seed }).state.apps.values()];
      const signers = apps.map((app) => ({ signingSecret: app.signingSecret, appId: app.id, appName: app.name }));
      expect(config.eventSigners).toEqual(signers);
      const rotation = apps.find((app) => app.tokenRotationEnabled);
      expect({ clientId: config.clientId, clientSecret: config.clientSecret, signingSecret: config.signingSecret }).toEqual({
        clientId: rotation?.clientId,
        clientSecret: rotation?.clientSecret,
        signingSecret: rotation?.signingSecret,
      });
    }
  });

  it("are the emulator's own options when nothing is set", () => {
    const { emulator } = parseConfig({ SESSION_PASSWORD: PASSWORD });
    const { options } = createEmulator();
    expect(emulator).toMatchObject({
      seed: options.seed,
      users: options.users,
      workspaces: options.workspaces,
      refreshGraceS: options.refreshGraceSeconds,
      cursorTtlS: options.cursorTtlSeconds,
      rateLimits: options.rateLimits,
    });
  });

  it("mount it where the console's route serves it", () => {
    expect(parseConfig({ SESSION_PASSWORD: PASSWORD }).upstream).toEqual({ kind: "emulator", baseUrl: `http://localhost:3000${EMULATOR_MOUNT_PATH}` });
    expect(existsSync(new URL(`../../../app${EMULATOR_MOUNT_PATH}/[[...path]]/route.ts`, import.meta.url))).toBe(true);
  });

  it("count as this machine the names the emulator's admin surface counts as loopback", () => {
    const hosts = ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "0:0:0:0:0:0:0:1", "0.0.0.0", "::", "192.168.1.20"];
    for (const host of [...hosts, "console.example", "localhost.example", "127.0.0.1.nip.io"]) {
      expect(isExposedHost(host), host).toBe(!isLoopbackHost(host));
    }
  });
});
