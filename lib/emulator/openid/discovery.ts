/**
 * "Sign in with" discovery: {base}/.well-known/openid-configuration and the keys at
 * {base}/openid/connect/keys. The issuer is the emulator's own base URL (publicBaseUrl, else the origin
 * the request arrived at plus the base path), and the endpoints sit under it where the platform has them
 * under its own: a client that reads the document rather than hard-coding the platform's address works
 * against either unchanged.
 */
import { jsonResponse } from "../core/errors";
import type { RequestContext } from "../types";
import { AUTHORIZE_PATH, SIGN_IN_SCOPES } from "./authorize";
import { SUPPORTED_CLAIMS } from "./claims";
import { publicKeySet } from "./keys";

export const DISCOVERY_PATH = "/.well-known/openid-configuration";
export const KEYS_PATH = "/openid/connect/keys";

export function showDiscovery(ctx: RequestContext): Response {
  const base = ctx.baseUrl;
  return jsonResponse({
    issuer: base,
    authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
    token_endpoint: `${base}/api/openid.connect.token`,
    userinfo_endpoint: `${base}/api/openid.connect.userInfo`,
    jwks_uri: `${base}${KEYS_PATH}`,
    scopes_supported: [...SIGN_IN_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    claims_supported: SUPPORTED_CLAIMS,
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
  });
}

export function showKeys(ctx: RequestContext): Response {
  // No cache lifetime: the key is new at each start, and a client finds it again by its kid.
  return jsonResponse(publicKeySet(ctx.state));
}
