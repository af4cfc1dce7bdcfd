export {
  changeAppScopes,
  enableAppEvents,
  exchangeForMigration,
  generateEmulatorConfigToken,
  getAppConfigOverview,
  getAppSettings,
  turnOnTokenRotation,
  verifyAppRequestUrl,
} from "./service";
export { forgetConfigToken, pasteConfigToken, rotateConfigTokenNow } from "./config-token";
export { getAppConfigRuntime } from "./runtime";
export type * from "./universal/types";
