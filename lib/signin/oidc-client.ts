import "server-only";
import * as oidc from "openid-client";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { platformClockFor } from "@/lib/platform";
import { processSingleton } from "@/lib/process-singleton";
import { fetchFromIssuer } from "./issuer-fetch";

/**
 * "Sign in with" the platform is OpenID Connect's authorization code flow, done by openid-client (by
 * jose's author, OpenID-certified): discovery, the authorize URL, the code exchange and every check of the
 * ID token (OpenID Connect Core §3.1.3.7: signature, iss, aud, azp, exp, nonce). This module only fits it
 * to the platform: its discovery is read once an hour, its requests go through fetchFromIssuer (the
 * embedded emulator is a function call away), and its clock is the platform's.
 */

/** A discovery document is read again after this long: the platform's endpoints do not move often. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Leeway for the clocks of the issuer and the console (by the platform's time as the console knows it). */
const CLOCK_TOLERANCE_S = 30;

/** The fetch openid-client is given: a function of (url, options) that answers a Response. */
export type IssuerTransport = oidc.CustomFetch;

/**
 * The platform answers a refused code exchange the Web API's way (HTTP 200, `{"ok":false,"error":…}`);
 * OAuth 2.0 (RFC 6749 §5.2), which openid-client reads, says 400 `{"error":…}`. A POST's answer is
 * rewritten to that, so the platform's error code (invalid_code, bad_client_secret…) reaches the console.
 */
async function asOAuthError(response: Response): Promise<Response> {
  if (response.status !== 200 || !(response.headers.get("content-type") ?? "").includes("json")) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { ok?: unknown; error?: unknown } | undefined;
  if (body?.ok !== false) return response;
  const error = typeof body.error === "string" && body.error ? body.error : "unknown_error";
  return Response.json({ error }, { status: 400, headers: { date: response.headers.get("date") ?? new Date().toUTCString() } });
}

/** The requests openid-client makes, sent the console's way (fetchFromIssuer). */
export const issuerTransport: IssuerTransport = async (url, options) => {
  const body = options.body;
  const response = await fetchFromIssuer(url, {
    method: options.method,
    headers: options.headers,
    body: body instanceof URLSearchParams || typeof body === "string" ? body : null,
  });
  return options.method === "POST" ? asOAuthError(response) : response;
};

/**
 * openid-client refuses an http:// issuer. The embedded emulator is served by this console on its own
 * origin (http://localhost… while the console is this machine's alone), and a standalone emulator on this
 * machine is http://localhost too: those, and only those, may be reached over plain http.
 */
function mayUsePlainHttp(baseUrl: string): boolean {
  const { upstream } = getConfig();
  if (upstream.kind === "emulator") return true;
  const host = new URL(baseUrl).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

interface KeptIssuer {
  metadata: Promise<oidc.ServerMetadata>;
  readAt: number;
  jwks?: oidc.ExportedJWKSCache;
}

async function discover(baseUrl: string, transport: IssuerTransport): Promise<oidc.ServerMetadata> {
  const { clientId, clientSecret } = getConfig();
  try {
    const found = await oidc.discovery(new URL(baseUrl), clientId, clientSecret, oidc.ClientSecretPost(clientSecret), {
      [oidc.customFetch]: transport,
      ...(mayUsePlainHttp(baseUrl) ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    return found.serverMetadata();
  } catch (error) {
    if (error instanceof AppError) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    throw new AppError("upstream_bad_answer", { message: `The platform's sign-in discovery document (${baseUrl}) could not be used: ${cause}.` });
  }
}

function keptIssuers() {
  return processSingleton("signInIssuers", () => new Map<string, KeptIssuer>());
}

/** The upstream's discovery document, from this process's cache (one per upstream; a failed read is not kept). */
function issuerFor(baseUrl: string, transport: IssuerTransport): KeptIssuer {
  const cache = keptIssuers();
  const kept = cache.get(baseUrl);
  if (kept && Date.now() - kept.readAt < DISCOVERY_TTL_MS) return kept;
  const fresh: KeptIssuer = { metadata: discover(baseUrl, transport), readAt: Date.now(), ...(kept?.jwks ? { jwks: kept.jwks } : {}) };
  cache.set(baseUrl, fresh);
  fresh.metadata.catch(() => {
    if (cache.get(baseUrl) === fresh) cache.delete(baseUrl);
  });
  return fresh;
}

/**
 * openid-client's configuration for one sign-in step: this app as the client (client_secret_post, RS256 ID
 * tokens only), the platform's clock (openid-client's clockSkew: an emulator's clock may have been moved),
 * signatures checked (openid-client skips them over TLS unless asked; here the key set, kept per process,
 * is what vouches for the token), and plain http for a local emulator only.
 */
export async function signInConfiguration(transport: IssuerTransport = issuerTransport): Promise<oidc.Configuration> {
  const { clientId, clientSecret, upstream } = getConfig();
  const issuer = issuerFor(upstream.baseUrl, transport);
  const metadata = await issuer.metadata;
  const skewS = Math.round((platformClockFor(upstream.baseUrl).now() - Date.now()) / 1000);
  const config = new oidc.Configuration(
    metadata,
    clientId,
    { client_secret: clientSecret, id_token_signed_response_alg: "RS256", [oidc.clockSkew]: skewS, [oidc.clockTolerance]: CLOCK_TOLERANCE_S },
    oidc.ClientSecretPost(clientSecret),
  );
  config[oidc.customFetch] = transport;
  if (mayUsePlainHttp(upstream.baseUrl)) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  if (issuer.jwks) oidc.setJwksCache(config, issuer.jwks);
  return config;
}

/** Keeps the key set openid-client read for the next sign-in (it reads it again when a token names a key it lacks). */
export function keepIssuerKeys(config: oidc.Configuration): void {
  const jwks = oidc.getJwksCache(config);
  const kept = keptIssuers().get(getConfig().upstream.baseUrl);
  if (jwks && kept) kept.jwks = jwks;
}
