/**
 * The key that signs the emulator's ID tokens (RS256), and the JWKS that publishes it at
 * {base}/openid/connect/keys.
 *
 * One RSA key per emulator, made on first use and kept for the emulator's life (a reset keeps it, as the
 * platform's keys outlive any workspace). It is random rather than derived from the seed: the seed is no
 * secret (the default is "switchboard", and the apps' credentials already follow from it), so a key
 * derived from it would let anyone sign ID tokens that a console trusting this emulator accepts. Clients
 * read the key from the JWKS, as they must for the platform, so a new one at each start costs them nothing.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import type { EmulatorState } from "../types";

export interface PublicJwk {
  kty: "RSA";
  n: string;
  e: string;
  kid: string;
  alg: "RS256";
  use: "sig";
}

interface SigningKey {
  privateKey: KeyObject;
  jwk: PublicJwk;
}

// Keyed by the state, which a reset changes in place: one key per emulator.
const KEYS = new WeakMap<EmulatorState, SigningKey>();

function base64url(data: Buffer | string): string {
  return Buffer.from(data).toString("base64url");
}

function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const { n, e } = publicKey.export({ format: "jwk" }) as { n: string; e: string };
  // The key's RFC 7638 thumbprint: a kid that names this key and no other.
  const kid = base64url(
    createHash("sha256")
      .update(JSON.stringify({ e, kty: "RSA", n }))
      .digest(),
  );
  return { privateKey, jwk: { kty: "RSA", n, e, kid, alg: "RS256", use: "sig" } };
}

function signingKey(state: EmulatorState): SigningKey {
  let key = KEYS.get(state);
  if (!key) {
    key = createSigningKey();
    KEYS.set(state, key);
  }
  return key;
}

/** The JWKS document: the one public key, with its kid. */
export function publicKeySet(state: EmulatorState): { keys: PublicJwk[] } {
  return { keys: [signingKey(state).jwk] };
}

/** A compact JWS of the claims, signed RS256 with the emulator's key, its kid in the header. */
export function signJwt(state: EmulatorState, claims: Record<string, unknown>): string {
  const key = signingKey(state);
  const header = base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: key.jwk.kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), key.privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** OpenID Connect's at_hash: the left half of the access token's SHA-256, base64url. */
export function accessTokenHash(accessToken: string): string {
  return base64url(createHash("sha256").update(accessToken).digest().subarray(0, 16));
}
