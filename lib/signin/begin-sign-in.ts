import "server-only";
import { getConfig } from "@/lib/config";
import { platformClockFor } from "@/lib/platform";
import { issuerMetadata } from "./discovery";
import { createSignInState } from "./sign-in-state";

export const SIGN_IN_SCOPES = "openid profile email";

/**
 * Where a sign-in may send the person back: a path of this console. Anything else (another site, a
 * protocol-relative //host, a backslash some browsers read as a slash) goes back to the dashboard.
 */
export function safeReturnPath(next: string | null | undefined): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\") || /[\u0000-\u001f]/.test(next)) return "/";
  return next;
}

/**
 * Starts "Sign in with": a state and a nonce bound to this browser, and the issuer's authorize URL (from its
 * discovery document). The platform documents no PKCE for sign-in (its discovery names no
 * code_challenge_methods_supported): the state, the nonce and the app's client secret, which the code is
 * only ever exchanged with, protect the code instead.
 */
export async function beginSignIn(returnTo: string): Promise<string> {
  const config = getConfig();
  const metadata = await issuerMetadata();
  const { state, nonce } = await createSignInState(safeReturnPath(returnTo), platformClockFor(config.upstream.baseUrl).now());
  const url = new URL(metadata.authorizationEndpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", SIGN_IN_SCOPES);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("redirect_uri", config.auth.redirectUri);
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  return url.toString();
}
