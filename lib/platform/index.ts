export {
  assertValidMethodName,
  callMethod,
  isLoopbackUrl,
  platformErrorCode,
  DEFAULT_TIMEOUT_MS,
  type CallMethodOptions,
  type HttpMethod,
  type ParamValue,
  type PlatformCallResult,
  type PlatformTransport,
  type WireRequest,
} from "./call-method";
export { inProcessTransport } from "./in-process-transport";
export { encodeCursorParam, readNextCursor } from "./cursor";
export { isCredentialKey, methodParams } from "./credential-params";
export { CALL_SELECTOR_KEYS, callArguments, parseCallBody, type CallBody } from "./call-arguments";
export { maskToken, maskWebhookUrl } from "./mask";
export { PLATFORM_ERRORS, PlatformError, isPlatformError, throwIfRateLimited, type KnownPlatformErrorCode } from "./errors";
export {
  exchangeAuthorizationCode,
  exchangeLongLivedToken,
  refreshAccessToken,
  reshapeTokenGrant,
  type ClientCredentials,
  type IssuedToken,
  type OAuthCallOptions,
  type TokenGrant,
} from "./oauth";
export { isValidMethodName } from "./method-name";
export { PlatformClock, platformClockFor, skewRangeFromDate, type SkewRange } from "./platform-clock";
export { EMULATOR_ABOUT_PATH, IDLE_READ_MS, readUpstreamAbout, upstreamAbout, type UpstreamAbout } from "./upstream-about";
