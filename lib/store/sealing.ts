import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { AppError } from "@/lib/http/app-error";

/**
 * Secrets at rest: every token, refresh token and webhook URL the store keeps is sealed with AES-256-GCM
 * (authenticated: a changed byte fails to open) under the newest key of a list, and opened with whichever
 * key sealed it. A sealed value reads `v1.<key id>.<iv>.<ciphertext and tag>` (base64url): the key id is a
 * hash of the key, so reordering the list or adding a key changes nothing for values already sealed. The
 * purpose ("tokens.value", …) is the GCM associated data: a value copied into another column does not open.
 *
 * The keys: ENCRYPTION_KEYS, newest first, each either 32 bytes in base64 (used as it is) or a passphrase of
 * at least 32 characters (HKDF-SHA256 derives the key from it). Unset, each SESSION_PASSWORD derives one with
 * HKDF under an info string of its own, so the store's keys are never the cookies' keys.
 */

export interface SealingKey {
  id: string;
  key: Buffer;
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

/** The keys, newest first: ENCRYPTION_KEYS' entries, or else keys derived from the session passwords (newest first). */
export function sealingKeys(encryptionKeys: string[], sessionPasswordsNewestFirst: string[]): SealingKey[] {
  const keys =
    encryptionKeys.length > 0
      ? encryptionKeys.map((entry) => rawKey(entry) ?? derived(entry, "switchboard store encryption key"))
      : sessionPasswordsNewestFirst.map((password) => derived(password, "switchboard store key from SESSION_PASSWORD"));
  if (keys.length === 0) throw new Error("the store needs at least one sealing key (ENCRYPTION_KEYS or SESSION_PASSWORD)");
  return keys.map((key) => ({ id: keyId(key), key }));
}

/** iron-session's password map (the highest id is the newest) as a list, newest first. */
export function passwordsNewestFirst(passwords: Record<string, string>): string[] {
  return Object.entries(passwords)
    .sort(([a], [b]) => Number(b) - Number(a))
    .map(([, password]) => password);
}

export class Sealer {
  private readonly byId: Map<string, Buffer>;

  constructor(private readonly keys: SealingKey[]) {
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** The id of the key that seals now (the newest). */
  get currentKeyId(): string {
    return this.keys[0]!.id;
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
      throw new AppError("store_unavailable", {
        message: `A secret in the store (${purpose}) was sealed with a key this server does not have (key id ${id ?? "unknown"}): put the key that sealed it back into ENCRYPTION_KEYS (after the newest), or the SESSION_PASSWORD it derives from.`,
      });
    }
    try {
      const bytes = Buffer.from(body, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      throw new AppError("store_unavailable", {
        message: `A secret in the store (${purpose}) does not open with its key ${id}: it was changed in the database.`,
      });
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
  return createHash("sha256").update(secret).digest("base64url");
}
