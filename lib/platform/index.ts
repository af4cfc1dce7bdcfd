export {
  assertValidMethodName,
  callMethod,
  platformErrorCode,
  type HttpMethod,
  type ParamValue,
  type PlatformCallResult,
  type PlatformTransport,
} from "./call-method";
export { inProcessTransport } from "./in-process-transport";
export { callArguments, parseCallBody, type CallBody } from "./call-arguments";
export { maskToken, maskWebhookUrl } from "./mask";
export { isPlatformError, throwIfRateLimited, type PlatformError } from "./errors";
export { exchangeAuthorizationCode, exchangeLongLivedToken, refreshAccessToken, type ClientCredentials, type IssuedToken, type TokenGrant } from "./oauth";
export { platformClockFor } from "./platform-clock";
export type { UpstreamAbout } from "./upstream-about";
