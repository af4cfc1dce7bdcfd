/**
 * The emulator's public entry: what the console, the scripts, the benchmarks and the tests that use the
 * emulator as a client import. It runs in any Node process; the console's embedded emulator, which reads
 * the console's configuration, has its own entry (embedded.ts). docs/emulator.md maps the spec's sections
 * (docs/spec/web-api.md) to the files behind this entry.
 */
export { createEmulator, type Emulator } from "./emulator";
export { isAdminPath } from "./admin/admin-guard";
export { createFakeClock, type FakeClock } from "./core/clock";
export { startEmulatorServer, type EmulatorServer, type EmulatorServerOptions } from "./adapters/node-server";
export {
  DEFAULT_APP_NAMES,
  DEFAULT_REDIRECT_URL,
  EMULATOR_MOUNT_PATH,
  defaultAppCredentials,
  type AppCredentials,
  type DefaultAppKey,
} from "./apps/default-apps";
export { settleEventDeliveries } from "./events/deliveries";
export type { App, AppManifest, Clock, DeliverEvent, EmulatorOptions, EmulatorState, ResolvedOptions } from "./types";
export { isAllowedHost, isAllowedOrigin, isLoopbackHost, requestHost } from "./core/hosts";
