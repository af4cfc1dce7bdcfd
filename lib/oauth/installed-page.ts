import type { Upstream } from "@/lib/config";
import { appHomeUrl } from "./app-links";
import type { InstalledNotice } from "./outside-install";
import { escapeHtml, standalonePage } from "./standalone-page";

/** Up to two initials of the app's name: its icon when the platform told none. */
function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? "?").slice(0, 2)).toUpperCase();
}

function iconOf(notice: InstalledNotice): string {
  return notice.icon
    ? `<img class="icon" src="${escapeHtml(notice.icon)}" alt="${escapeHtml(notice.app)}'s icon" width="56" height="56">`
    : `<span class="icon initials" aria-hidden="true">${escapeHtml(initialsOf(notice.app))}</span>`;
}

/**
 * The page an install by someone outside the team ends on (GET /oauth/installed): the app, by name and icon,
 * is installed in their workspace, and the next step is the workspace itself, at the app's App Home. The
 * installer is not on the app's team, so the page says who takes it from here in their words, and nothing
 * of the console (whose dashboard is for the app's team).
 */
export function renderInstalledPage(notice: InstalledNotice | undefined, upstream: Upstream): { html: string; status: number } {
  if (!notice) {
    return {
      status: 404,
      html: standalonePage(
        "No install to show",
        `<h1>No install to show</h1>
<p>This page shows the outcome of an install made in this browser in the last 10 minutes, and there is none.</p>
<div class="actions"><a class="button" href="/oauth/install">Add to workspace</a></div>`,
      ),
    };
  }
  const app = escapeHtml(notice.app);
  const team = escapeHtml(notice.team);
  const open =
    notice.appId && notice.teamId
      ? `<div class="actions"><a class="button" href="${escapeHtml(appHomeUrl(upstream, notice.appId, notice.teamId))}">Open ${team}</a></div>`
      : "";
  return {
    status: 200,
    html: standalonePage(
      `${notice.app} is installed in ${notice.team}`,
      `<div class="app">${iconOf(notice)}<span class="ok" data-outcome="installed">installed</span></div>
<h1>${app} is installed in ${team}</h1>
<p>${app} can now work in <strong>${team}</strong>. Open the workspace to find it among its apps: its Home tab is where it starts.</p>
${open}
<p class="note">There is nothing more to do on this page. ${app}'s makers take it from here, and you or an admin of ${team} can remove it from the workspace's app settings at any time.</p>`,
    ),
  };
}
