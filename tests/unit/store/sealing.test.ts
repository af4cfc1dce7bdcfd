import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { passwordsNewestFirst, Sealer, sealingKeys, secretHash } from "@/lib/store/sealing";

const passphrase = (name: string) => `${name}-passphrase-of-at-least-thirty-two-characters`;

describe("sealing the store's secrets", () => {
  it("opens what it sealed, and the sealed text holds neither the secret nor any part of it", () => {
    const sealer = new Sealer(sealingKeys([passphrase("one")], []));
    const secret = `xoxe.xoxb-1-${randomBytes(16).toString("hex")}`;
    const sealed = sealer.seal(secret, "tokens.value");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(12));
    expect(sealer.seal(secret, "tokens.value")).not.toBe(sealed);
    expect(sealer.unseal(sealed, "tokens.value")).toBe(secret);
  });

  it("refuses a changed value, or one moved to another column, with 503 store_unavailable", () => {
    const sealer = new Sealer(sealingKeys([passphrase("one")], []));
    const sealed = sealer.seal("xoxb-1-abc", "tokens.value");
    // One bit of the ciphertext or tag flipped. (Swapping the last base64 character could change only its
    // padding bits, and so nothing: that made this test fail about one run in sixteen.)
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    for (const at of [0, body.length - 1]) {
      const changed = Buffer.from(body);
      changed[at]! ^= 0x01;
      const tampered = [...parts.slice(0, 3), changed.toString("base64url")].join(".");
      expect(() => sealer.unseal(tampered, "tokens.value")).toThrow(expect.objectContaining({ code: "store_unavailable" }));
    }
    expect(() => sealer.unseal(sealed, "tokens.refresh_token")).toThrow(/does not open with its key/);
  });

  it("seals with the newest key and opens with any key of the list, which names the one that sealed", () => {
    const older = new Sealer(sealingKeys([passphrase("old")], []));
    const rotated = new Sealer(sealingKeys([passphrase("new"), passphrase("old")], []));
    const sealedBefore = older.seal("secret", "p");
    expect(rotated.unseal(sealedBefore, "p")).toBe("secret");
    expect(rotated.isStale(sealedBefore)).toBe(true);
    expect(rotated.isStale(rotated.seal("secret", "p"))).toBe(false);
    expect(() => new Sealer(sealingKeys([passphrase("new")], [])).unseal(sealedBefore, "p")).toThrow(/sealed with a key this server does not have/);
  });

  it("uses a 32-byte base64 key as it is, and derives store keys from session passwords apart from the cookies'", () => {
    const raw = randomBytes(32);
    const [asGiven] = sealingKeys([raw.toString("base64")], []);
    expect(asGiven!.key.equals(raw)).toBe(true);
    const [derived] = sealingKeys([], [passphrase("session")]);
    expect(derived!.key.length).toBe(32);
    expect(derived!.key.toString("utf8")).not.toContain("session");
    expect(sealingKeys([], [passphrase("session")])[0]!.id).toBe(derived!.id);
    expect(passwordsNewestFirst({ "1": "a", "3": "c", "2": "b" })).toEqual(["c", "b", "a"]);
    expect(secretHash("x")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("hashes a secret as it always has (SHA-256, base64url): a key or refresh token stored by hash earlier is still found", () => {
    // The digest of "abc" in FIPS 180-2's example, in base64url.
    expect(secretHash("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    const key = `sbk_${randomBytes(32).toString("base64url")}`;
    expect(secretHash(key)).toBe(createHash("sha256").update(key).digest("base64url"));
  });
});
