import "server-only";
import { getConfig } from "@/lib/config";
import { createEmulator, type Emulator } from "@/lib/emulator";
import { EMULATOR_MOUNT_PATH } from "@/lib/emulator/default-apps";

const KEY = Symbol.for("switchboard.embeddedEmulator");
type GlobalWithEmulator = typeof globalThis & { [KEY]?: Emulator };

/**
 * The emulator the console mounts at /emulator. One per server process, kept on globalThis so that every
 * route bundle (and dev-mode reloads) shares the same state.
 */
export function getEmbeddedEmulator(): Emulator {
  const g = globalThis as GlobalWithEmulator;
  if (!g[KEY]) {
    const config = getConfig();
    g[KEY] = createEmulator({
      basePath: EMULATOR_MOUNT_PATH,
      users: config.emulator.users,
      seed: config.emulator.seed,
      refreshGraceSeconds: config.emulator.refreshGraceS,
      cursorTtlSeconds: config.emulator.cursorTtlS,
      rateLimits: config.emulator.rateLimits,
      // The default apps accept the console's own callback and deliver events to its request URL.
      redirectUrls: [config.redirectUri],
      eventsRequestUrl: `${config.appOrigin}/api/events`,
    });
  }
  return g[KEY];
}
