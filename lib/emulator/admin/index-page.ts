/**
 * GET {base}/: the emulator's index page: its apps, an Install link for each, its sign-in issuer, the admin surface, and how
 * to get an app configuration token. The page has no script (its CSP allows none) and the admin surface
 * takes only JSON, so issuing a token is a command to copy rather than a button.
 */
import { authorizeUrl } from "../apps/registry";
import { escapeHtml, htmlResponse, layout } from "../core/html";
import type { RequestContext } from "../types";
import { memberCount } from "../workspace/members";

export function showIndexPage(ctx: RequestContext): Response {
  const { state, baseUrl } = ctx;
  const ws = state.workspace;
  const rows = [...state.apps.values()]
    .map((app) => {
      const rotation = app.tokenRotationEnabled ? `<span class="badge">rotation on</span>` : `<span class="badge off">rotation off</span>`;
      const install =
        app.redirectUrls.length > 0
          ? `<a class="button primary" href="${escapeHtml(authorizeUrl(app, baseUrl))}">Install ${escapeHtml(app.name)}</a>`
          : `<span class="meta">no redirect URL</span>`;
      return (
        `<tr id="app-${escapeHtml(app.id)}"><td><strong>${escapeHtml(app.name)}</strong><div class="meta">${escapeHtml(app.id)}</div></td>` +
        `<td><code>${escapeHtml(app.clientId)}</code></td><td>${rotation}</td><td>${install}</td></tr>`
      );
    })
    .join("");
  // No link to GET /admin/apps: it answers every app's client and signing secrets, which no page links to.
  const admin = ["state", "clock", "views", "interactions", "records"]
    .map((p) => `<li><a href="${escapeHtml(`${baseUrl}/admin/${p}`)}">GET ${escapeHtml(`${baseUrl}/admin/${p}`)}</a></li>`)
    .join("");
  // A member's acts take a JSON body (docs/emulator.md, "Interactivity"): routes to POST to, not links.
  const acts = ["command", "click", "shortcut", "submit", "close-view", "suggest"]
    .map((p) => `<li><code>POST ${escapeHtml(`${baseUrl}/admin/act/${p}`)}</code></li>`)
    .join("");
  // An emulator reachable beyond loopback answers a script's admin token only, and so does one behind a sign-in
  // (the console's with AUTH_MODE=oidc, which refuses an Origin alone with 401); the command names the
  // variable, never the token.
  const { requireToken, scriptsNeedToken } = ctx.options.admin;
  const tokenOnly = requireToken || scriptsNeedToken;
  const adminCredential = tokenOnly ? `'Authorization: Bearer '"$EMULATOR_ADMIN_TOKEN"` : `'Origin: ${new URL(baseUrl).origin}'`;
  const configTokenCommand = `curl -X POST -H ${adminCredential} -H 'Content-Type: application/json' -d '{}' ${baseUrl}/admin/config-tokens`;
  const tokenHeader = `the admin token in an <code>Authorization: Bearer</code> header (the <code>EMULATOR_ADMIN_TOKEN</code> set in the server's environment)`;
  const credentialNote = requireToken
    ? `<p class="meta">This emulator is reachable beyond this machine: its admin surface answers only ${tokenHeader}.</p>`
    : scriptsNeedToken
      ? `<p class="meta">People sign in to this server: its admin surface answers a signed-in admin's browser, and a script only with ${tokenHeader}; an <code>Origin</code> alone is refused (401).</p>`
      : `<p class="meta">On this machine the <code>Origin</code> of the emulator's own pages is enough; a script may send the admin token in an <code>Authorization: Bearer</code> header instead.</p>`;
  const others = [...state.workspaces.values()].filter((w) => w !== ws);
  const otherWorkspaces =
    others.length === 0
      ? ""
      : `<p class="meta">${others.length} more workspace${others.length === 1 ? "" : "s"}: ${others
          .slice(0, 20)
          .map((w) => `${escapeHtml(w.team.name)} <code>${escapeHtml(w.team.id)}</code>`)
          .join(", ")}${others.length > 20 ? ", …" : ""} (an install link with <code>team=</code> picks one).</p>`;
  return htmlResponse(
    layout(
      "Platform emulator",
      `<div class="card">
<h1>${escapeHtml(ws.team.name)}</h1>
<p class="lead">Team <code>${escapeHtml(ws.team.id)}</code> · ${memberCount(ws).toLocaleString("en-US")} members · ${ws.channels.length} channels.
Web API base URL: <code>${escapeHtml(`${baseUrl}/api/`)}</code></p>${otherWorkspaces}
<h2>Apps</h2>
<table><thead><tr><th>App</th><th>Client ID</th><th>Token rotation</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<h2>Sign in with the platform (OpenID Connect)</h2>
<p class="meta">Issuer <code>${escapeHtml(baseUrl)}</code>: a client reads its endpoints from <a href="${escapeHtml(`${baseUrl}/.well-known/openid-configuration`)}">the discovery document</a>.</p>
<h2>Admin (development only)</h2>
<ul>${admin}</ul>
<p class="meta">Act as a member on the apps' commands, buttons, shortcuts and modals (JSON bodies):</p>
<ul>${acts}</ul>
<h2>App configuration tokens</h2>
<p class="meta">The <code>apps.manifest.*</code> methods take an app configuration token, which works for 12 hours and is renewed with <code>tooling.tokens.rotate</code>. Issue one for the workspace's primary owner with:</p>
<pre style="white-space:pre-wrap;word-break:break-all"><code>${escapeHtml(configTokenCommand)}</code></pre>
${credentialNote}
</div>`,
      { wide: true },
    ),
  );
}
