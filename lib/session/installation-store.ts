import "server-only";
import { AppError } from "@/lib/http/app-error";
import { INSTALLATION_ID, installationSchema, type Installation } from "./installation";
import { deleteCookie, listCookieNames, readSealedCookie, writeSealedCookie } from "./sealed-cookie";

/**
 * One sealed cookie per installation, named after it: each stays far below the 4 KB cookie limit. The
 * whole Cookie header must stay below Node's 16 KB request-header limit, or every request answers 431,
 * including the page that could forget an installation. Measured with the emulator's tokens: about 1.8 KB
 * per installation (both rotating tokens and a webhook), 1.7 KB of pasted webhooks, 2.8 KB of send
 * history, 1.8 KB of pending OAuth states; four installations leave room for the platform's longer tokens.
 */
export const INSTALLATION_COOKIE_PREFIX = "sb_inst_";
export const MAX_INSTALLATIONS = 4;
/** Refresh tokens do not expire; an installation the browser keeps for 30 days is renewed on every write. */
export const INSTALLATION_MAX_AGE_S = 30 * 24 * 3600;

const cookieName = (id: string) => `${INSTALLATION_COOKIE_PREFIX}${id}`;

function assertInstallationId(id: string) {
  if (!INSTALLATION_ID.test(id)) throw new AppError("unknown_installation", 404, "No installation with this id in this session.");
}

/** The installations sealed in this request's cookies; unreadable ones are cleared and skipped. */
export async function listInstallations(): Promise<Installation[]> {
  const names = await listCookieNames(INSTALLATION_COOKIE_PREFIX);
  const found = await Promise.all(names.map(async (name) => ({ name, installation: await readSealedCookie(name, installationSchema) })));
  return found
    .flatMap(({ name, installation }) => (installation && cookieName(installation.id) === name ? [installation] : []))
    .sort((a, b) => a.installedAt - b.installedAt);
}

export async function findInstallation(id: string): Promise<Installation | undefined> {
  if (!INSTALLATION_ID.test(id)) return undefined;
  return readSealedCookie(cookieName(id), installationSchema);
}

/** The installation, or a 404 that says so. */
export async function requireInstallation(id: string): Promise<Installation> {
  assertInstallationId(id);
  const installation = await findInstallation(id);
  if (!installation) throw new AppError("unknown_installation", 404, "No installation with this id in this session.");
  return installation;
}

export async function saveInstallation(installation: Installation): Promise<void> {
  assertInstallationId(installation.id);
  const names = await listCookieNames(INSTALLATION_COOKIE_PREFIX);
  if (!names.includes(cookieName(installation.id)) && names.length >= MAX_INSTALLATIONS) {
    throw new AppError(
      "too_many_installations",
      409,
      `This browser session already holds ${MAX_INSTALLATIONS} installations, the most its cookies can carry. Forget one before adding another.`,
    );
  }
  await writeSealedCookie(cookieName(installation.id), installation, INSTALLATION_MAX_AGE_S);
}

export async function removeInstallation(id: string): Promise<void> {
  assertInstallationId(id);
  await deleteCookie(cookieName(id));
}
