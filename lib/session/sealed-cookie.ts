import "server-only";
import { sealData, unsealData } from "iron-session";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { getCookieJar } from "@/lib/http/cookie-jar";

/** Browsers drop a cookie over 4096 bytes (name, value and attributes together): stay clear of it. */
export const MAX_SEALED_COOKIE_BYTES = 4000;

export type PasswordMap = Record<string, string>;

/** Seals with the highest-numbered password (iron-session's rule), so rotation only adds a new id. */
export function sealValue(value: unknown, passwords: PasswordMap, ttlS: number): Promise<string> {
  return sealData(value as Record<string, unknown>, { password: passwords, ttl: ttlS });
}

/**
 * Unseals with whichever password id the seal names. Anything that does not unseal (tampered, truncated,
 * sealed with a password no longer configured, expired) reads as undefined: never an exception.
 */
export async function unsealValue<T>(seal: string, passwords: PasswordMap, ttlS: number): Promise<T | undefined> {
  try {
    const data = await unsealData<Record<string, unknown>>(seal, { password: passwords, ttl: ttlS });
    return data && Object.keys(data).length > 0 ? (data as T) : undefined;
  } catch {
    return undefined;
  }
}

function cookieAttributes(maxAgeS: number) {
  return { maxAgeS, httpOnly: true, secure: getConfig().secureCookies, sameSite: "lax" as const, path: "/" };
}

/** Reads a sealed cookie of this request; an unreadable one is cleared and reads as absent. */
export async function readSealedCookie<T>(name: string, ttlS = 0): Promise<T | undefined> {
  const jar = await getCookieJar();
  const raw = jar.get(name);
  if (!raw) return undefined;
  const value = await unsealValue<T>(raw, getConfig().sessionPasswords, ttlS);
  if (value === undefined) deleteFromJar(jar, name);
  return value;
}

/** Seals `value` into an HttpOnly, SameSite=Lax cookie (Secure over https) that lives `maxAgeS` seconds. */
export async function writeSealedCookie(name: string, value: unknown, maxAgeS: number): Promise<void> {
  const seal = await sealValue(value, getConfig().sessionPasswords, maxAgeS);
  if (name.length + seal.length > MAX_SEALED_COOKIE_BYTES) {
    throw new AppError("cookie_too_large", 507, `This data does not fit in one browser cookie (${seal.length} bytes sealed, at most ${MAX_SEALED_COOKIE_BYTES}).`);
  }
  const jar = await getCookieJar();
  jar.set(name, seal, cookieAttributes(maxAgeS));
}

function deleteFromJar(jar: Awaited<ReturnType<typeof getCookieJar>>, name: string) {
  try {
    jar.delete(name);
  } catch {
    // Server components cannot write cookies; the next route handler that reads it clears it.
  }
}

export async function deleteCookie(name: string): Promise<void> {
  deleteFromJar(await getCookieJar(), name);
}

/** Names of this request's cookies that start with `prefix`. */
export async function listCookieNames(prefix: string): Promise<string[]> {
  return (await getCookieJar()).list(prefix).map((c) => c.name);
}
