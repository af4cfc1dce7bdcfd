import "server-only";
import { createLocalJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { AppError } from "@/lib/http/app-error";
import { processSingleton } from "@/lib/process-singleton";
import { fetchFromIssuer, issuerJson } from "./issuer-fetch";

/** A key set is read again at most this often when a token names a key it lacks (a forged kid must not make the console hammer the issuer). */
const REFETCH_COOLDOWN_MS = 10_000;

interface KeptKeys {
  keys: JSONWebKeySet;
  readAt: number;
}

async function readKeys(jwksUri: string): Promise<JSONWebKeySet> {
  const response = await fetchFromIssuer(jwksUri);
  const body = (await issuerJson(response, "sign-in key set")) as { keys?: unknown } | null;
  if (!response.ok || !body || !Array.isArray(body.keys)) {
    throw new AppError("upstream_bad_answer", { message: `The platform's sign-in key set (${jwksUri}) answered HTTP ${response.status} without keys.` });
  }
  return body as JSONWebKeySet;
}

/**
 * The issuer's public keys (its JWKS, from the discovery's jwks_uri), kept per process. A token signed with
 * a key the kept set lacks (the issuer rotated its keys; the emulator makes a new one at each start) makes
 * the console read the set again, at most once per cooldown.
 */
export function issuerKeys(jwksUri: string): JWTVerifyGetKey {
  const cache = processSingleton("signInKeys", () => new Map<string, KeptKeys>());
  return async (header, token) => {
    let kept = cache.get(jwksUri);
    if (!kept) {
      kept = { keys: await readKeys(jwksUri), readAt: Date.now() };
      cache.set(jwksUri, kept);
    }
    const known = kept.keys.keys.some((key) => header.kid === undefined || key.kid === header.kid);
    if (!known && Date.now() - kept.readAt >= REFETCH_COOLDOWN_MS) {
      kept = { keys: await readKeys(jwksUri), readAt: Date.now() };
      cache.set(jwksUri, kept);
    }
    return createLocalJWKSet(kept.keys)(header, token);
  };
}
