import "server-only";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { z } from "zod";
import { AppError } from "@/lib/http/app-error";
import { INSTALLATION_ID, installationSchema, type InstallationRecord } from "./record";
import { deleteCookie, listCookieNames, readSealedCookie, sealedCookieBytes, storedCookieBytes, writeSealedCookie } from "@/lib/session/sealed-cookie";

/**
 * One sealed cookie per installation, named after it: each stays far below the 4 KB cookie limit. The
 * whole Cookie header must stay below Node's 16 KB request-header limit, or every request answers 431,
 * including the page that could forget an installation. Measured with the emulator's tokens: an
 * installation cookie takes about 1.7 KB without its timeline (both rotating tokens and a webhook), 2.3 KB
 * with 20 entries; pasted webhooks 3.0 KB, the send history 2.6 KB, pending OAuth states 1.1 KB. So the
 * installations share INSTALLATION_COOKIES_TOTAL_BYTES: one, two or three of them keep their whole
 * timeline, a full session of four keeps 2,000 bytes each (the newest entries that fit), and the whole
 * header stays under 15 KB (tests/unit/installations/whole-cookie-header).
 */
export const INSTALLATION_COOKIE_PREFIX = "sb_inst_";
export const MAX_INSTALLATIONS = 4;
/** Refresh tokens do not expire; an installation the browser keeps for 30 days is renewed on every write. */
export const INSTALLATION_MAX_AGE_S = 30 * 24 * 3600;
/** What the installation cookies may take of the Cookie header together. */
export const INSTALLATION_COOKIES_TOTAL_BYTES = 8000;
/** One installation cookie at most, whatever room is left: clear of the browser's 4 KB. */
const MAX_INSTALLATION_COOKIE_BYTES = 3500;

/**
 * What one installation cookie (name and sealed value) may take when the session holds `count`: its
 * timeline keeps the newest entries that fit, losing its oldest first. The tokens are never cut: an
 * installation whose tokens alone take more (the platform's longest) keeps no timeline, and stays under
 * the 4 KB of a cookie.
 */
export function installationCookieBudget(count: number): number {
  return Math.min(MAX_INSTALLATION_COOKIE_BYTES, Math.floor(INSTALLATION_COOKIES_TOTAL_BYTES / Math.max(1, count)));
}

/** The budget of each installation cookie in a full session: 2,000 bytes. */
export const INSTALLATION_COOKIE_BUDGET_BYTES = installationCookieBudget(MAX_INSTALLATIONS);

/**
 * How an installation is sealed: its JSON deflated. The tokens barely compress, but the timeline does (its
 * entries repeat their words and masked prefixes): twenty entries add about 660 bytes to a cookie this way,
 * and about 3,500 as plain JSON, which would not fit. A cookie sealed before this (the installation's JSON
 * itself) is still read.
 */
const PACKED_VERSION = 2;
/** An inflated installation is never near this: a seal only this server made cannot be a zip bomb, but stay bounded. */
const MAX_INFLATED_BYTES = 64 * 1024;

interface PackedInstallation {
  v: typeof PACKED_VERSION;
  z: string;
}

function pack(installation: InstallationRecord): PackedInstallation {
  return { v: PACKED_VERSION, z: deflateRawSync(JSON.stringify(installation), { level: 9 }).toString("base64url") };
}

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

/** What an installation cookie may hold once unsealed: a packed installation, or (sealed before packing) a plain one. */
const installationCookieSchema = z.union([packedSchema, installationSchema]) satisfies z.ZodType<InstallationRecord>;

const cookieName = (id: string) => `${INSTALLATION_COOKIE_PREFIX}${id}`;

function assertInstallationId(id: string) {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation");
}

/** The installations sealed in this request's cookies; unreadable ones are cleared and skipped. */
export async function listInstallations(): Promise<InstallationRecord[]> {
  const names = await listCookieNames(INSTALLATION_COOKIE_PREFIX);
  const found = await Promise.all(names.map(async (name) => ({ name, installation: await readSealedCookie(name, installationCookieSchema) })));
  return found
    .flatMap(({ name, installation }) => (installation && cookieName(installation.id) === name ? [installation] : []))
    .sort((a, b) => a.installedAt - b.installedAt);
}

export async function findInstallation(id: string): Promise<InstallationRecord | undefined> {
  if (!INSTALLATION_ID.test(id)) return undefined;
  return readSealedCookie(cookieName(id), installationCookieSchema);
}

/** The installation, or a 404 that says so. */
export async function requireInstallation(id: string): Promise<InstallationRecord> {
  assertInstallationId(id);
  const installation = await findInstallation(id);
  if (!installation) throw new AppError("unknown_installation");
  return installation;
}

/**
 * The installation packed with as much of its timeline as fits `budget`: the newest entries, found by
 * bisection (each try seals once).
 */
async function packWithinBudget(installation: InstallationRecord, budget: number): Promise<PackedInstallation> {
  const name = cookieName(installation.id);
  const fits = async (packed: PackedInstallation) => (await sealedCookieBytes(name, packed, INSTALLATION_MAX_AGE_S)) <= budget;
  const whole = pack(installation);
  const timeline = installation.timeline ?? [];
  if (timeline.length === 0 || (await fits(whole))) return whole;
  const keeping = (count: number) => pack({ ...installation, timeline: timeline.slice(0, count) });
  let lo = 0;
  let hi = timeline.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (await fits(keeping(mid))) lo = mid;
    else hi = mid - 1;
  }
  return keeping(lo);
}

/**
 * Writes an installation within its share of the Cookie header. A new one shrinks every installation's
 * share, so the others are trimmed to it in the same response: the installations' cookies never take more
 * than INSTALLATION_COOKIES_TOTAL_BYTES together (tokens aside).
 */
export async function saveInstallation(installation: InstallationRecord): Promise<void> {
  assertInstallationId(installation.id);
  const names = await listCookieNames(INSTALLATION_COOKIE_PREFIX);
  const isNew = !names.includes(cookieName(installation.id));
  if (isNew && names.length >= MAX_INSTALLATIONS) {
    throw new AppError("too_many_installations", {
      message: `This browser session already holds ${MAX_INSTALLATIONS} installations, the most its cookies can carry. Forget one before adding another.`,
    });
  }
  const budget = installationCookieBudget(names.length + (isNew ? 1 : 0));
  await writeSealedCookie(cookieName(installation.id), await packWithinBudget(installation, budget), INSTALLATION_MAX_AGE_S);
  if (!isNew) return;
  for (const name of names) {
    if ((await storedCookieBytes(name)) <= budget) continue;
    const other = await readSealedCookie(name, installationCookieSchema);
    if (other && cookieName(other.id) === name) await writeSealedCookie(name, await packWithinBudget(other, budget), INSTALLATION_MAX_AGE_S);
  }
}

export async function removeInstallation(id: string): Promise<void> {
  assertInstallationId(id);
  await deleteCookie(cookieName(id));
}
