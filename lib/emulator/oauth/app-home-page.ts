/**
 * GET {base}/app_redirect?app={app_id}&team={team_id}: the link the platform documents for opening an app's
 * App Home (its Messages and Home tabs) in a workspace, where an install's "Open the workspace" leads. The
 * platform opens its client there; the emulator has none, so this page stands in: which app, in which
 * workspace, whether it is installed there, its bot user, and the Home tab it published (views.publish) for
 * the member signed in in this browser (openid/browser-session.ts).
 */
import { PageError } from "../core/errors";
import { escapeHtml, htmlResponse, layout } from "../core/html";
import type { RequestContext } from "../types";
import { appUserKey } from "../workspace/views";
import { memberAt, memberIndexOf } from "../workspace/members";
import { readSignedInMember } from "../openid/browser-session";

export const APP_REDIRECT_PATH = "/app_redirect";

function homeTabText(ctx: RequestContext, appId: string, teamId: string): string {
  const signedIn = readSignedInMember(ctx);
  if (!signedIn || signedIn.ws.team.id !== teamId) {
    return "Sign in to this workspace (the app's “Sign in with” page) to see the Home tab it published for you.";
  }
  const viewer = String(memberAt(signedIn.ws, memberIndexOf(signedIn.ws, signedIn.userId), "").real_name);
  const viewId = signedIn.ws.views.homes.get(appUserKey(appId, signedIn.userId));
  const view = viewId ? signedIn.ws.views.views.get(viewId) : undefined;
  const blocks = view && Array.isArray(view.view.blocks) ? view.view.blocks.length : 0;
  return view
    ? `Its Home tab for ${viewer} holds ${blocks} block${blocks === 1 ? "" : "s"} (views.publish).`
    : `It has published no Home tab for ${viewer} yet (views.publish does).`;
}

export function showAppHome(ctx: RequestContext): Response {
  const query = new URL(ctx.request.url).searchParams;
  const app = ctx.state.apps.get(query.get("app") ?? "");
  const ws = ctx.state.workspaces.get(query.get("team") ?? "");
  if (!app || !ws) throw new PageError(404, "This app could not be found", "The link names an app or a workspace the emulator does not have.");
  const installed = [...ctx.state.installations.values()].some((i) => i.appId === app.id && i.teamId === ws.team.id && !i.uninstalled);
  const bot = ws.botsByAppId.get(app.id);
  const name = escapeHtml(app.name);
  const team = escapeHtml(ws.team.name);
  return htmlResponse(
    layout(
      `${app.name} in ${ws.team.name}`,
      `<div class="card">
<h1>${name}</h1>
<p class="lead">App Home in ${team} <span class="meta">(${escapeHtml(ws.team.domain)})</span></p>
<p>${
        installed && bot
          ? `${name} is installed in ${team}; its bot user is <code>${escapeHtml(bot.userId)}</code>. ${escapeHtml(homeTabText(ctx, app.id, ws.team.id))}`
          : `${name} is not installed in ${team}.`
      }</p>
<p class="meta">The platform opens its own client here. The emulator has none: an app's messages and views are read with the Web API (conversations.history, views.publish).</p>
</div>`,
    ),
  );
}
