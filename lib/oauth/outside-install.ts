import "server-only";
import { z } from "zod";
import type { Viewer } from "@/lib/viewer";
import { canSee } from "@/lib/installations/universal/rights";
import type { AppKey, InstallationView } from "@/lib/installations/universal/view";
import { deleteCookie, readSealedCookie, writeSealedCookie } from "@/lib/http/sealed-cookie";
import { readInstallingApp } from "@/lib/app-config/installing-app";
import { getConfig } from "@/lib/config";
import { credentialsFor } from "@/lib/installations/rotation/runtime";
import { readAppIcon } from "./app-icon";
import { appPageUrl } from "./app-links";

/**
 * The install page behind an app's "Add to workspace" button is used by people outside the team: they are
 * not signed in to the console (or signed in to a workspace that does not see the installation), and must
 * see that the app is installed, with nothing of the console. The callback keeps what that page says (app
 * and workspace names, nothing secret) in a sealed cookie of this browser for a few minutes, and sends the
 * browser to /oauth/installed, which a reload can show again (the callback itself is good only once).
 */
export const INSTALLED_NOTICE_COOKIE = "sb_installed";
const NOTICE_TTL_S = 10 * 60;

/** What the page says: the names, and (cookies of earlier versions lack them) the ids its links need and the app's icon. */
const noticeSchema = z.object({
  app: z.string().max(200),
  team: z.string().max(200),
  appId: z.string().max(40).optional(),
  teamId: z.string().max(40).optional(),
  icon: z.string().max(500).optional(),
});
export type InstalledNotice = z.infer<typeof noticeSchema>;

/**
 * The workspace of the member signed in to the console, whom "Add to workspace" installs for: the platform's
 * `team` parameter preselects it on the consent page. None for the operator or someone not signed in, whose
 * consent page opens on the workspace the platform picks (the one they are signed in to there).
 */
export function signedInTeam(viewer: Viewer | null): string | undefined {
  return viewer?.kind === "member" ? viewer.teamId : undefined;
}

/** Where the callback sends the installer: the dashboard if they may see the installation there, else the stand-alone page. */
export async function afterInstallLocation(installation: InstallationView, viewer: Viewer | null): Promise<string> {
  if (viewer && canSee(viewer, installation)) return `/?installed=${encodeURIComponent(installation.id)}`;
  const icon = await readAppIcon(installation.id);
  const notice: InstalledNotice = {
    app: (installation.app.name ?? installation.app.id ?? "The app").slice(0, 200),
    team: (installation.team.name || installation.team.id).slice(0, 200),
    ...(installation.app.id ? { appId: installation.app.id } : {}),
    teamId: installation.team.id,
    ...(icon ? { icon } : {}),
  };
  await writeSealedCookie(INSTALLED_NOTICE_COOKIE, notice, NOTICE_TTL_S);
  return "/oauth/installed";
}

export async function readInstalledNotice(): Promise<InstalledNotice | undefined> {
  const notice = await readSealedCookie(INSTALLED_NOTICE_COOKIE, noticeSchema, NOTICE_TTL_S);
  if (!notice) await deleteCookie(INSTALLED_NOTICE_COOKIE);
  return notice;
}

/** Where a failed install's page leads: start again, and the console (for whoever may use it) or the app's own page. */
export interface CallbackNextSteps {
  retryHref: string;
  /** Whether this browser may use the console: someone outside the team meets a sign-in there instead. */
  console: boolean;
  /** The app's page on the platform, when the console can tell which app (its configuration is readable). */
  appPage?: { name: string | null; url: string };
}

/**
 * A failed or cancelled install's way on. Someone outside the team did not come from the console and cannot
 * use it (its sign-in is for the app's team): they get the install again and the app's own page instead.
 */
export async function callbackNextSteps(appKey: AppKey | undefined, viewer: Viewer | null): Promise<CallbackNextSteps> {
  const key = appKey ?? "console";
  const retryHref = key === "legacy" ? "/oauth/install?app=legacy" : "/oauth/install";
  if (viewer) return { retryHref, console: true };
  const app = await readInstallingApp(viewer, { key, clientId: credentialsFor(key).clientId });
  return { retryHref, console: false, ...(app ? { appPage: { name: app.name, url: appPageUrl(getConfig().upstream, app.appId) } } : {}) };
}
