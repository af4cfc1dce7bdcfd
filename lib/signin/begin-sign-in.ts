import "server-only";
import * as oidc from "openid-client";
import { getConfig } from "@/lib/config";
import { platformClockFor } from "@/lib/platform";
import { signInConfiguration } from "./oidc-client";
import { safeReturnPath } from "./return-path";
import { createSignInState } from "./sign-in-state";

export const SIGN_IN_SCOPES = "openid profile email";

/**
 * Starts "Sign in with": a state and a nonce bound to this browser, and the issuer's authorize URL (from its
 * discovery document, by openid-client). The platform documents no PKCE for sign-in (its discovery names no
 * code_challenge_methods_supported): the state, the nonce and the app's client secret, which the code is
 * only ever exchanged with, protect the code instead.
 */
export async function beginSignIn(returnTo: string | null): Promise<string> {
  const config = getConfig();
  const client = await signInConfiguration();
  const { state, nonce } = await createSignInState(safeReturnPath(returnTo), platformClockFor(config.upstream.baseUrl).now());
  return oidc.buildAuthorizationUrl(client, { response_type: "code", scope: SIGN_IN_SCOPES, redirect_uri: config.auth.redirectUri, state, nonce }).toString();
}
