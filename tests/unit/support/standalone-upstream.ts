import { defaultAppCredentials } from "@/lib/emulator";
import { freePort, startStandaloneEmulator, type StandaloneEmulator } from "../../e2e/support/hosted";

/** A standalone emulator (`npm run emulator`, its own process) that this process's console reaches through PLATFORM_BASE_URL. */
export interface StandaloneUpstream {
  emulator: StandaloneEmulator;
  /** The emulator's rotation app, whose credentials the console is given. */
  app: ReturnType<typeof defaultAppCredentials>;
  /** Stops the emulator and takes the console's upstream settings back. */
  stop(): void;
}

const SETTINGS = ["PLATFORM_BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "SIGNING_SECRET"] as const;

/**
 * Starts a standalone emulator from `seed` and points the console at it with the app's credentials, as a team
 * runs it. The two share the admin token (EMULATOR_ADMIN_TOKEN), as a deployment sets them.
 */
export async function startStandaloneUpstream(seed: string, consoleOrigins: string[]): Promise<StandaloneUpstream> {
  const emulator = await startStandaloneEmulator({ port: await freePort(), seed, adminToken: process.env.EMULATOR_ADMIN_TOKEN!, consoleOrigins });
  const app = defaultAppCredentials(seed, "rotation");
  Object.assign(process.env, { PLATFORM_BASE_URL: emulator.url, CLIENT_ID: app.clientId, CLIENT_SECRET: app.clientSecret, SIGNING_SECRET: app.signingSecret });
  return {
    emulator,
    app,
    stop() {
      emulator.stop();
      for (const name of SETTINGS) delete process.env[name];
    },
  };
}
