import "server-only";
import { z } from "zod";
import { canSee } from "@/lib/access/rights";
import { signedInViewer } from "@/lib/access/viewer";
import type { InstallationView } from "@/lib/installations/universal/view";
import { deleteCookie, readSealedCookie, writeSealedCookie } from "@/lib/session/sealed-cookie";

/**
 * The install page behind an app's "Add to workspace" button is used by people outside the team: they are
 * not signed in to the console (or signed in to a workspace that does not see the installation), and must
 * see that the app is installed, with nothing of the console. The callback keeps what that page says (app
 * and workspace names, nothing secret) in a sealed cookie of this browser for a few minutes, and sends the
 * browser to /oauth/installed, which a reload can show again (the callback itself is good only once).
 */
export const INSTALLED_NOTICE_COOKIE = "sb_installed";
const NOTICE_TTL_S = 10 * 60;

const noticeSchema = z.object({ app: z.string().max(200), team: z.string().max(200) });
export type InstalledNotice = z.infer<typeof noticeSchema>;

/** Where the callback sends the installer: the dashboard if they may see the installation there, else the stand-alone page. */
export async function afterInstallLocation(installation: InstallationView): Promise<string> {
  const viewer = await signedInViewer();
  if (viewer && canSee(viewer, installation)) return `/?installed=${encodeURIComponent(installation.id)}`;
  const notice: InstalledNotice = {
    app: (installation.app.name ?? installation.app.id ?? "The app").slice(0, 200),
    team: (installation.team.name || installation.team.id).slice(0, 200),
  };
  await writeSealedCookie(INSTALLED_NOTICE_COOKIE, notice, NOTICE_TTL_S);
  return "/oauth/installed";
}

export async function readInstalledNotice(): Promise<InstalledNotice | undefined> {
  const notice = await readSealedCookie(INSTALLED_NOTICE_COOKIE, noticeSchema, NOTICE_TTL_S);
  if (!notice) await deleteCookie(INSTALLED_NOTICE_COOKIE);
  return notice;
}
