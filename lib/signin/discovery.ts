import "server-only";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { processSingleton } from "@/lib/process-singleton";
import { fetchFromIssuer, issuerJson } from "./issuer-fetch";

export const DISCOVERY_PATH = "/.well-known/openid-configuration";
/** A discovery document is read again after this long: the platform's endpoints do not move often. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

/** What the console needs of the issuer's discovery document. */
export interface IssuerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

const DiscoverySchema = z.object({
  issuer: z.string().url(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
});

/**
 * The issuer's discovery document ({base}/.well-known/openid-configuration), read once an hour rather
 * than hard-coding the platform's addresses. OpenID Connect Discovery §4.3: the issuer it names must be
 * the one it was asked of, or its keys could vouch for someone else's tokens.
 */
async function readDiscovery(baseUrl: string): Promise<IssuerMetadata> {
  const response = await fetchFromIssuer(`${baseUrl}${DISCOVERY_PATH}`);
  if (!response.ok) {
    throw new AppError("upstream_bad_answer", {
      message: `The platform's sign-in discovery document (${baseUrl}${DISCOVERY_PATH}) answered HTTP ${response.status}.`,
    });
  }
  const parsed = DiscoverySchema.safeParse(await issuerJson(response, "sign-in discovery document"));
  if (!parsed.success) throw new AppError("upstream_bad_answer", { message: "The platform's sign-in discovery document lacks an endpoint the console needs." });
  const d = parsed.data;
  if (d.issuer.replace(/\/+$/, "") !== baseUrl) {
    throw new AppError("upstream_bad_answer", { message: `The sign-in discovery document at ${baseUrl} names another issuer (${d.issuer}).` });
  }
  if (d.id_token_signing_alg_values_supported && !d.id_token_signing_alg_values_supported.includes("RS256")) {
    throw new AppError("upstream_bad_answer", { message: "The platform does not sign ID tokens with RS256." });
  }
  return {
    issuer: d.issuer,
    authorizationEndpoint: d.authorization_endpoint,
    tokenEndpoint: d.token_endpoint,
    jwksUri: d.jwks_uri,
  };
}

/** The upstream's issuer metadata, from this process's cache (one per upstream, shared by every route bundle). */
export async function issuerMetadata(): Promise<IssuerMetadata> {
  const baseUrl = getConfig().upstream.baseUrl;
  const cache = processSingleton("signInDiscovery", () => new Map<string, { metadata: Promise<IssuerMetadata>; readAt: number }>());
  const kept = cache.get(baseUrl);
  if (kept && Date.now() - kept.readAt < DISCOVERY_TTL_MS) return kept.metadata;
  const metadata = readDiscovery(baseUrl);
  cache.set(baseUrl, { metadata, readAt: Date.now() });
  // A failed read is not kept: the next sign-in asks again.
  metadata.catch(() => {
    if (cache.get(baseUrl)?.metadata === metadata) cache.delete(baseUrl);
  });
  return metadata;
}
