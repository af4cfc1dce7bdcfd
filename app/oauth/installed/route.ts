// GET /oauth/installed - The page an install by someone outside the team ends on: the app is installed, and nothing of the console
import { getConfig } from "@/lib/config";
import { handleOpenRoute } from "@/lib/access/handle-route";
import { renderInstalledPage } from "@/lib/oauth/installed-page";
import { readInstalledNotice } from "@/lib/oauth/outside-install";

export const dynamic = "force-dynamic";

export const GET = handleOpenRoute(
  async () => {
    const { html, status } = renderInstalledPage(await readInstalledNotice(), getConfig().upstream);
    return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
  },
  { navigable: true },
);
