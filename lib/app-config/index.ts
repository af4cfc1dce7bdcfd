export {
  changeAppScopes,
  exchangeForMigration,
  generateEmulatorConfigToken,
  getAppConfigOverview,
  getAppSettings,
  selectBackend,
  turnOnTokenRotation,
  verifyAppRequestUrl,
} from "./service";
export { currentConfigTokenView, forgetConfigToken, pasteConfigToken, rotateConfigTokenNow } from "./config-token";
export { getAppConfigRuntime, type AppConfigRuntime } from "./runtime";
export { ManifestRefusedError, type AppConfigBackend, type AppRecord } from "./backend";
export { emulatorAdminBackend } from "./emulator-admin-backend";
export { manifestApiBackend } from "./manifest-api-backend";
export type * from "./universal/types";
