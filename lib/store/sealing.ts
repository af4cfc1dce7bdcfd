import "server-only";
import { createCipheriv, createDecipheriv, createHash, hash, hkdfSync, randomBytes } from "node:crypto";
import { UnreadableSecretError } from "./errors";

/**
 * Secrets at rest: every token, refresh token and webhook URL the store keeps is sealed with AES-256-GCM
 * (authenticated: a changed byte fails to open) under the newest key of a list, and opened with whichever
 * key sealed it. A sealed value reads `v1.<key id>.<iv>.<ciphertext and tag>` (base64url): the key id is a
 * hash of the key, so reordering the list or adding a key changes nothing for values already sealed. The
 * purpose ("tokens.value", …) is the GCM associated data: a value copied into another column does not open.
 *
 * The keys: ENCRYPTION_KEYS, newest first, each either 32 bytes in base64 (used as it is) or a passphrase of
 * at least 32 characters (HKDF-SHA256 derives the key from it). Unset, each SESSION_PASSWORD derives one with
 * HKDF under an info string of its own, so the store's keys are never the cookies' keys. Set, the keys that
 * SESSION_PASSWORD derives still open (never seal) what they sealed before ENCRYPTION_KEYS was adopted, until
 * the background re-seal (reseal.ts) has left nothing sealed with them.
 */

export interface SealingKey {
  id: string;
  key: Buffer;
  /** Where the key comes from, as an operator names it: "ENCRYPTION_KEYS entry 1", "SESSION_PASSWORD (derived)". */
  source: string;
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SALT = Buffer.from("switchboard.store");

function keyId(key: Buffer): string {
  return createHash("sha256").update("switchboard.store.key-id").update(key).digest("base64url").slice(0, 8);
}

function rawKey(entry: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(entry)) return undefined;
  const bytes = Buffer.from(entry.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : undefined;
}

function derived(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, SALT, info, 32));
}

const FROM_PASSPHRASE = "switchboard store encryption key";
const FROM_SESSION_PASSWORD = "switchboard store key from SESSION_PASSWORD";

const nth = (list: unknown[], i: number) => (list.length > 1 ? ` entry ${i + 1}` : "");

/**
 * The keys, the one that seals first: ENCRYPTION_KEYS' entries (newest first), or else keys derived from the
 * session passwords (newest first). With ENCRYPTION_KEYS set, the keys the session passwords derive follow
 * them, to open what was sealed before it was adopted; so does each passphrase of ENCRYPTION_KEYS derived as a
 * SESSION_PASSWORD is (what an earlier message told operators to put there).
 */
export function sealingKeys(encryptionKeys: string[], sessionPasswordsNewestFirst: string[]): SealingKey[] {
  const fromSession = (password: string, source: string) => ({ key: derived(password, FROM_SESSION_PASSWORD), source });
  const keys = [
    ...encryptionKeys.map((entry, i) => ({ key: rawKey(entry) ?? derived(entry, FROM_PASSPHRASE), source: `ENCRYPTION_KEYS${nth(encryptionKeys, i)}` })),
    ...sessionPasswordsNewestFirst.map((password, i) => fromSession(password, `SESSION_PASSWORD${nth(sessionPasswordsNewestFirst, i)} (derived)`)),
    ...encryptionKeys.flatMap((entry, i) => (rawKey(entry) ? [] : [fromSession(entry, `ENCRYPTION_KEYS${nth(encryptionKeys, i)} read as a SESSION_PASSWORD`)])),
  ];
  if (keys.length === 0) throw new Error("the store needs at least one sealing key (ENCRYPTION_KEYS or SESSION_PASSWORD)");
  const byId = new Map<string, SealingKey>();
  for (const { key, source } of keys) {
    const id = keyId(key);
    if (!byId.has(id)) byId.set(id, { id, key, source });
  }
  return [...byId.values()];
}

/** iron-session's password map (the highest id is the newest) as a list, newest first. */
export function passwordsNewestFirst(passwords: Record<string, string>): string[] {
  return Object.entries(passwords)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(([, password]) => password);
}

export class Sealer {
  private readonly byId: Map<string, Buffer>;

  constructor(readonly keys: SealingKey[]) {
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The id of the key that seals now (the newest). */
  get currentKeyId(): string {
    return this.keys[0]!.id;
  }

  /** Whether this server has the key of that id. */
  hasKey(id: string): boolean {
    return this.byId.has(id);
  }

  seal(plain: string, purpose: string): string {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${id}.${iv.toString("base64url")}.${body.toString("base64url")}`;
  }

  sealOptional(plain: string | undefined | null, purpose: string): string | null {
    return plain === undefined || plain === null ? null : this.seal(plain, purpose);
  }

  /**
   * Opens a sealed value. One sealed with a key this server no longer has, or changed, is a 503
   * `store_unavailable` that says which key is missing: never a silent empty token.
   */
  unseal(sealed: string, purpose: string): string {
    const [version, id, iv, body] = sealed.split(".");
    const key = id === undefined ? undefined : this.byId.get(id);
    if (version !== VERSION || !key || iv === undefined || body === undefined) {
      throw new UnreadableSecretError(
        id ?? "unknown",
        `A secret in the store (${purpose}) was sealed with a key this server does not have (key id ${id ?? "unknown"}). Give this server that key again: ` +
          "the ENCRYPTION_KEYS entry that sealed it (after the newest), or the SESSION_PASSWORD it was derived from (it keeps opening what it sealed beside ENCRYPTION_KEYS).",
      );
    }
    try {
      const bytes = Buffer.from(body, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new UnreadableSecretError(id ?? "unknown", `A secret in the store (${purpose}) does not open with its key ${id}: it was changed in the database.`);
    }
  }

  unsealOptional(sealed: string | null, purpose: string): string | undefined {
    return sealed === null ? undefined : this.unseal(sealed, purpose);
  }

  /** Whether a sealed value was sealed with an older key than the newest (the repository re-seals it on write). */
  isStale(sealed: string): boolean {
    return sealed.split(".")[1] !== this.currentKeyId;
  }
}

/** SHA-256 in base64url: finds a secret (a refresh token, a webhook URL) by value without keeping it. */
export function secretHash(secret: string): string {
  // Node's one-shot hash (node >= 20.12; package.json asks 20.19): the same digest as createHash().update().digest(),
  // without a Hash object per call (8 µs of a token API answer's key check, issue 43).
  return hash("sha256", secret, "base64url");
}
