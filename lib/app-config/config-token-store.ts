import "server-only";
import { sealData, unsealData } from "iron-session";
import { z } from "zod";
import { getConfig } from "@/lib/config";
import { AppError } from "@/lib/http/app-error";
import { getCookieJar, type CookieJar } from "@/lib/http/cookie-jar";

/**
 * The app configuration token pair, sealed in a cookie of its own (iron-session: AES-256-CBC + HMAC with
 * SESSION_PASSWORD, the newest password seals and every configured one unseals), HttpOnly, SameSite=Lax,
 * Secure and `__Host-` prefixed over https, as the installation cookies are. It is kept apart from them:
 * the pair belongs to a member of a workspace, not to an installation, and it manages the apps, not a
 * workspace's data. Unlike an installation cookie, one that is present but does not unseal is not read
 * as absent: the person pasted this token, so the console says it is gone and asks for another.
 */

const COOKIE = "sb_appcfg";
/** A configuration refresh token does not expire until used: the cookie lives as long as an installation's. */
const MAX_AGE_S = 30 * 24 * 3600;

export const storedConfigTokenSchema = z.object({
  token: z.string().regex(/^xoxe\.xoxp-/),
  refreshToken: z.string().regex(/^xoxe-/),
  /** Epoch ms by this server's clock. */
  expiresAt: z.number(),
  rotatedAt: z.number(),
  teamId: z.string().optional(),
  userId: z.string().optional(),
});

export type StoredConfigToken = z.infer<typeof storedConfigTokenSchema>;

function cookieName(): string {
  return getConfig().secureCookies ? `__Host-${COOKIE}` : COOKIE;
}

function attributes() {
  return { httpOnly: true, secure: getConfig().secureCookies, sameSite: "lax" as const, path: "/" };
}

function clear(jar: CookieJar) {
  try {
    jar.delete(cookieName(), attributes());
  } catch {
    // Server components cannot write cookies: the next route that reads it clears it.
  }
}

/**
 * The sealed pair of this request, or undefined when there is none. A cookie that does not unseal (changed,
 * or sealed with a password no longer configured) or holds another shape is cleared and answers 400
 * `config_token_unreadable`, so the page can ask for a new paste instead of silently using another backend.
 */
export async function readConfigToken(): Promise<StoredConfigToken | undefined> {
  const jar = await getCookieJar();
  const copies = jar.getAll(cookieName());
  if (copies.length === 0) return undefined;
  for (const seal of copies) {
    let value: unknown;
    try {
      value = await unsealData(seal, { password: getConfig().sessionPasswords, ttl: MAX_AGE_S });
    } catch {
      continue;
    }
    const parsed = storedConfigTokenSchema.safeParse(value);
    if (parsed.success) return parsed.data;
  }
  clear(jar);
  throw new AppError("config_token_unreadable");
}

export async function writeConfigToken(value: StoredConfigToken): Promise<void> {
  const seal = await sealData(value, { password: getConfig().sessionPasswords, ttl: MAX_AGE_S });
  (await getCookieJar()).set(cookieName(), seal, { ...attributes(), maxAgeS: MAX_AGE_S });
}

export async function deleteConfigToken(): Promise<void> {
  clear(await getCookieJar());
}
