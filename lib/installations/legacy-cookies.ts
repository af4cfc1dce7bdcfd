import "server-only";
import { inflateRawSync } from "node:zlib";
import { z } from "zod";
import { getCookieJar, type CookieJar } from "@/lib/http/cookie-jar";
import { logger } from "@/lib/log";
import { getStore } from "@/lib/store";
import { deleteCookie, listCookieNames, readSealedCookie } from "@/lib/http/sealed-cookie";
import { installationSchema, type InstallationRecord } from "./record";
import { toStoreEntries, toStoreInstallation } from "./store-mapping";

/**
 * Installations that earlier versions sealed in the browser, one `sb_inst_<id>` cookie each (`__Host-` over
 * https), their JSON deflated ({v: 2, z}) or, before that, as it was. The first request that carries one
 * (the route wrapper, lib/access/handle-route.ts, runs this step before every handler) imports it into the store (store.importInstallation: per token kind the token issued later wins, so a
 * second browser holding an older copy never overwrites a newer token), then clears the cookie: nothing is
 * lost on upgrade. A cookie's token has no issue time: store-mapping.ts derives it (a rotating token's
 * expiry less the 12 hours it lives; a long-lived token's record's last update). A cookie that does not
 * unseal or is of another shape is cleared (readSealedCookie), never a 500.
 */
export const LEGACY_INSTALLATION_COOKIE_PREFIX = "sb_inst_";

const PACKED_VERSION = 2;
/** An inflated installation was never near this: stay bounded. */
const MAX_INFLATED_BYTES = 64 * 1024;

const packedSchema = z
  .object({ v: z.literal(PACKED_VERSION), z: z.string() })
  .transform((packed, ctx) => {
    try {
      return JSON.parse(inflateRawSync(Buffer.from(packed.z, "base64url"), { maxOutputLength: MAX_INFLATED_BYTES }).toString("utf8")) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "not a packed installation" });
      return z.NEVER;
    }
  })
  .pipe(installationSchema);

/** What an installation cookie of an earlier version holds once unsealed: packed, or (before packing) plain. */
const legacyCookieSchema = z.union([packedSchema, installationSchema]) satisfies z.ZodType<InstallationRecord>;

/** Requests whose cookies were looked at already: the import runs once per request. */
const SEEN = new WeakSet<CookieJar>();

/** The request's cookie jar, or undefined outside a request (a script, a test calling the store directly). */
async function currentJar(): Promise<CookieJar | undefined> {
  try {
    return await getCookieJar();
  } catch {
    return undefined;
  }
}

/**
 * Imports (then clears) the installation cookies this request carries; answers how many were imported. A
 * request without one opens nothing (a probe works with the store out of reach).
 */
export async function importLegacyCookies(): Promise<number> {
  const jar = await currentJar();
  if (!jar || SEEN.has(jar)) return 0;
  SEEN.add(jar);
  const names = await listCookieNames(LEGACY_INSTALLATION_COOKIE_PREFIX);
  if (names.length === 0) return 0;
  const store = await getStore();
  let imported = 0;
  for (const name of names) {
    const record = await readSealedCookie(name, legacyCookieSchema);
    if (record && name === `${LEGACY_INSTALLATION_COOKIE_PREFIX}${record.id}`) {
      // The cookie's timeline was newest first; the store appends in the order things happened.
      const timeline = toStoreEntries([...(record.timeline ?? [])].reverse());
      const { outcome } = await store.installations.import(toStoreInstallation(record), { timeline });
      logger.info({ installation: record.id, outcome }, "an installation cookie of an earlier version was imported into the store");
      imported++;
    }
    // Imported (or unreadable): the store has it now, and the cookie goes.
    await deleteCookie(name);
  }
  return imported;
}
