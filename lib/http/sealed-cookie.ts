import "server-only";
import { sealData, unsealData } from "iron-session";
import type { z } from "zod";
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

/**
 * Seals this process has opened, with what they held. Every console call carries the same installation
 * cookie, and opening its seal (two key derivations, an HMAC and a decryption, each a round trip to the
 * thread pool) took about 0.6 ms of the 0.9 ms /api/call spent before calling the platform. A seal
 * authenticates itself, so an entry is only found by presenting that exact cookie, which opens to the same
 * value every time until the seal expires (checked again on every hit) or its password is retired. Readers
 * get the schema's copy (readSealedCookie), never the kept value.
 */
const OPENED_SEALS = new Map<string, { value: unknown; expiresAt: number; passwords: PasswordMap }>();
const MAX_OPENED_SEALS = 512;

/** The expiry a seal carries (epoch ms), or Infinity for one sealed without a time to live. */
function sealExpiry(seal: string): number {
  const expiration = seal.split("*")[5];
  return expiration && /^\d+$/.test(expiration) ? Number(expiration) : Infinity;
}

/** unsealValue, remembering what each seal held (see OPENED_SEALS). */
async function openSeal(seal: string, passwords: PasswordMap, ttlS: number): Promise<unknown> {
  const opened = OPENED_SEALS.get(seal);
  if (opened && opened.passwords === passwords && Date.now() < opened.expiresAt) {
    OPENED_SEALS.delete(seal);
    OPENED_SEALS.set(seal, opened);
    return opened.value;
  }
  const value = await unsealValue<unknown>(seal, passwords, ttlS);
  if (value === undefined) return undefined;
  OPENED_SEALS.delete(seal);
  OPENED_SEALS.set(seal, { value, expiresAt: sealExpiry(seal), passwords });
  if (OPENED_SEALS.size > MAX_OPENED_SEALS) OPENED_SEALS.delete(OPENED_SEALS.keys().next().value!);
  return value;
}

/**
 * Over https every cookie carries the `__Host-` prefix: the browser then only keeps it when it is Secure,
 * set by this very host at Path=/ with no Domain, so a sibling subdomain cannot plant a same-name cookie
 * that shadows (or, once the server clears it, deletes) the real one. Over plain http (a console on
 * localhost) browsers do not all honour the prefix; there, reads try every copy of a name (readSealedCookie).
 */
const HOST_PREFIX = "__Host-";

function physicalName(name: string): string {
  return getConfig().secureCookies ? `${HOST_PREFIX}${name}` : name;
}

/**
 * The name a cookie had before the prefix, still read over https so that an upgrade loses no session: its
 * value must unseal like any other, and the next write of that cookie moves it under the prefix.
 */
function legacyName(name: string): string | undefined {
  return getConfig().secureCookies ? name : undefined;
}

function cookieAttributes(maxAgeS: number) {
  return { maxAgeS, httpOnly: true, secure: getConfig().secureCookies, sameSite: "lax" as const, path: "/" };
}

/**
 * Reads a sealed cookie of this request, checked against `schema`. Each copy the browser sent is tried,
 * and the first that unseals and fits the schema wins: a planted duplicate cannot hide the real one. When
 * none does (tampered, sealed with a retired password, or of another version's shape), the cookie reads as
 * absent and is cleared.
 */
export async function readSealedCookie<T>(name: string, schema: z.ZodType<T>, ttlS = 0): Promise<T | undefined> {
  const jar = await getCookieJar();
  const legacy = legacyName(name);
  let copies = jar.getAll(physicalName(name));
  if (copies.length === 0 && legacy) copies = jar.getAll(legacy);
  if (copies.length === 0) return undefined;
  for (const raw of copies) {
    const unsealed = raw ? await openSeal(raw, getConfig().sessionPasswords, ttlS) : undefined;
    if (unsealed === undefined) continue;
    const parsed = schema.safeParse(unsealed);
    if (parsed.success) return parsed.data;
  }
  deleteFromJar(jar, physicalName(name));
  return undefined;
}

/** Seals `value` into an HttpOnly, SameSite=Lax cookie (Secure over https) that lives `maxAgeS` seconds. */
export async function writeSealedCookie(name: string, value: unknown, maxAgeS: number): Promise<void> {
  const seal = await sealValue(value, getConfig().sessionPasswords, maxAgeS);
  const cookie = physicalName(name);
  if (cookie.length + seal.length > MAX_SEALED_COOKIE_BYTES) {
    throw new AppError("cookie_too_large", {
      message: `This data does not fit in one browser cookie (${seal.length} bytes sealed, at most ${MAX_SEALED_COOKIE_BYTES}).`,
    });
  }
  const jar = await getCookieJar();
  jar.set(cookie, seal, cookieAttributes(maxAgeS));
  const legacy = legacyName(name);
  if (legacy && jar.getAll(legacy).length > 0) deleteFromJar(jar, legacy);
}

function deleteFromJar(jar: Awaited<ReturnType<typeof getCookieJar>>, name: string) {
  try {
    // Cleared with the attributes it was set with: a __Host- cookie is only replaced by a Secure one.
    const { maxAgeS: _, ...attributes } = cookieAttributes(0);
    jar.delete(name, attributes);
  } catch {
    // Server components cannot write cookies; the next route handler that reads it clears it.
  }
}

export async function deleteCookie(name: string): Promise<void> {
  const jar = await getCookieJar();
  deleteFromJar(jar, physicalName(name));
  const legacy = legacyName(name);
  if (legacy && jar.getAll(legacy).length > 0) deleteFromJar(jar, legacy);
}

/** Names (without the `__Host-` prefix) of this request's session cookies that start with `prefix`. */
export async function listCookieNames(prefix: string): Promise<string[]> {
  const jar = await getCookieJar();
  const physical = physicalName(prefix);
  const names = jar.list(physical).map((c) => c.name.slice(physical.length - prefix.length));
  const legacy = legacyName(prefix);
  if (legacy) names.push(...jar.list(legacy).map((c) => c.name));
  return [...new Set(names)];
}
