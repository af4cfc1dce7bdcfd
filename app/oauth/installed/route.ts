// GET /oauth/installed - The page an install by someone outside the team ends on: the app is installed, and nothing of the console
import { handleRoute } from "@/lib/access/handle-route";
import { readInstalledNotice } from "@/lib/oauth/outside-install";
import { escapeHtml, standalonePage } from "@/lib/oauth/standalone-page";

export const dynamic = "force-dynamic";

export const GET = handleRoute(
  async () => {
    const notice = await readInstalledNotice();
    const html = notice
      ? standalonePage(
          `${notice.app} is installed`,
          `<span class="ok" data-outcome="installed">installed</span>
<h1>${escapeHtml(notice.app)} is installed in ${escapeHtml(notice.team)}</h1>
<p>The app can now work in <strong>${escapeHtml(notice.team)}</strong>. Its team manages the installation; there is nothing more to do here, and you can close this page.</p>`,
        )
      : standalonePage(
          "No install to show",
          `<h1>No install to show</h1>
<p>This page shows the outcome of an install made in this browser in the last 10 minutes, and there is none.</p>
<a class="button" href="/oauth/install">Add to workspace</a>`,
        );
    return new Response(html, { status: notice ? 200 : 404, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
  },
  { navigable: true },
);
