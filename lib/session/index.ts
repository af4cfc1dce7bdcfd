export {
  callAsInstallation,
  exchangeSessionToken,
  forgetSessionInstallation,
  getSessionInstallations,
  getConsoleSession,
  getSessionInstallationViews,
  refreshSessionToken,
  testSessionToken,
  revokeSessionToken,
  uninstallSessionInstallation,
  type CallAsInstallationOptions,
  type ConsoleSession,
  type ExchangeRequest,
  type InstallationActionAnswer,
} from "./installation-actions";
export { beginInstall, completeInstall, type InstallOutcome, type InstallProblem, type InstallRequest } from "./install";
export { requireLongLivedToken, requireToken, toInstallationView, INSTALLATION_ID, type InstallationRecord, type StoredToken } from "./installation-record";
export {
  APP_KEYS,
  installationName,
  installationPhase,
  tokenFactsOf,
  type AppKey,
  type InstallationState,
  type InstallationView,
  type NamedApp,
  type TokenIdentity,
  type TokenView,
} from "./installation-view";
export { TOKEN_KINDS, type TokenKind } from "./token-kind";
export { MAX_INSTALLATIONS } from "./installation-store";
export { readSealedCookie, writeSealedCookie, deleteCookie, sealValue, unsealValue, MAX_SEALED_COOKIE_BYTES } from "./sealed-cookie";
export { InMemoryRefreshCoordinator, refreshTokenKey, type RefreshCoordinator } from "./refresh-coordinator";
export { getRefreshCoordinator } from "./process-refresh-coordinator";
export { RedisRefreshCoordinator, type RedisRefreshCoordinatorOptions } from "./redis-refresh-coordinator";
export { needsProactiveRefresh, callWithFreshToken, refreshInstallationToken } from "./freshness";
export { getSessionRuntime, type SessionRuntime } from "./runtime";
export { proxyMethodCall } from "./call-proxy";
export { MAX_TIMELINE_ENTRIES, type TimelineEntry } from "./timeline";
export { INSTALLATION_COOKIE_BUDGET_BYTES } from "./installation-store";
