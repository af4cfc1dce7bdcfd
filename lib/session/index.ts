export {
  callAsInstallation,
  exchangeSessionToken,
  forgetSessionInstallation,
  getSessionInstallations,
  getConsoleSessionViews,
  getSessionInstallationViews,
  refreshSessionToken,
  testSessionToken,
  revokeSessionToken,
  uninstallSessionInstallation,
  type CallAsInstallationOptions,
  type ExchangeRequest,
} from "./installations";
export { beginInstall, completeInstall, type InstallOutcome, type InstallProblem, type InstallRequest } from "./install";
export {
  toInstallationView,
  installationPhase,
  tokenFactsOf,
  INSTALLATION_ID,
  type AppKey,
  type Installation,
  type InstallationState,
  type InstallationView,
  type StoredToken,
  type TokenKind,
  type TokenView,
} from "./installation";
export { MAX_INSTALLATIONS } from "./installation-store";
export { readSealedCookie, writeSealedCookie, deleteCookie, sealValue, unsealValue, MAX_SEALED_COOKIE_BYTES } from "./sealed-cookie";
export { InMemoryRefreshCoordinator, refreshTokenKey, type RefreshCoordinator } from "./refresh-coordinator";
export { getRefreshCoordinator } from "./process-refresh-coordinator";
export { RedisRefreshCoordinator, type RedisRefreshCoordinatorOptions } from "./redis-refresh-coordinator";
export { needsProactiveRefresh, callWithFreshToken, refreshInstallationToken } from "./freshness";
export { getSessionRuntime, type SessionRuntime } from "./runtime";
export { proxyMethodCall } from "./call-proxy";
export { installationName } from "./installation-name";
export { MAX_TIMELINE_ENTRIES, type TimelineEntry } from "./timeline";
export { INSTALLATION_COOKIE_BUDGET_BYTES } from "./installation-store";
