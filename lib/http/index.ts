export { AppError, isAppError } from "./app-error";
export { toErrorResponse } from "./error-response";
export type { ErrorBody } from "./error-body";
export { createRouteWrapper, DEFAULT_MAX_BODY_BYTES, type RouteGate, type RouteOptions, type RouteContext, type RouteHandler } from "./handle-route";
export { getCookieJar, runWithCookieJar, RequestCookieJar, serializeCookie, type CookieJar, type CookieOptions } from "./cookie-jar";
export { MAX_JSON_BODY_DEPTH, parseJsonBody, parseJsonText } from "./json-body";
