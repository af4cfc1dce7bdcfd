export { AppError, isAppError } from "./app-error";
export { createRouteWrapper } from "./handle-route";
export { getCookieJar, runWithCookieJar } from "./cookie-jar";
export { parseJsonBody, parseQuery } from "./json-body";
