/**
 * The "Sign in with" page ({base}/openid/connect/authorize): the install consent page's look and scope
 * list (oauth/consent-page.ts), with a choice of who signs in instead of a channel picker. The emulator has
 * no one logged in, so the person at the browser picks a member of the workspace to be.
 */
import { scopeList } from "../oauth/consent-page";
import { escapeHtml, layout } from "../core/html";

export interface SignInPageInput {
  appName: string;
  teamName: string;
  teamDomain: string;
  scopes: string[];
  /** The members one may sign in as, in users.list order; `selectedUserId` is preselected. */
  members: { id: string; realName: string; name: string }[];
  selectedUserId: string;
  /** Where the form posts: the same authorize URL, query string included. */
  actionUrl: string;
  /** The other workspaces one could sign in to instead, each with its page. */
  otherWorkspaces?: { name: string; url: string }[];
}

export function renderSignInPage(input: SignInPageInput): string {
  const app = escapeHtml(input.appName);
  const team = escapeHtml(input.teamName);
  const options = input.members
    .map(
      (m) =>
        `<option value="${escapeHtml(m.id)}"${m.id === input.selectedUserId ? " selected" : ""}>${escapeHtml(m.realName)} (@${escapeHtml(m.name)})</option>`,
    )
    .join("");
  return layout(
    `Sign in to ${input.appName} with the ${input.teamName} workspace`,
    `<form class="card" method="post" action="${escapeHtml(input.actionUrl)}">
<h1>Sign in to ${app} with ${team}</h1>
<p class="lead">${team} <span class="meta">(${escapeHtml(input.teamDomain)})</span></p>
${
  input.otherWorkspaces
    ? `<p class="meta">Another workspace: ${input.otherWorkspaces.map((w) => `<a href="${escapeHtml(w.url)}">${escapeHtml(w.name)}</a>`).join(", ")}</p>`
    : ""
}
<label for="user_id">Sign in as</label>
<select id="user_id" name="user_id" required>${options}</select>
<p class="meta">The emulator has no accounts: pick the member of ${team} to be.</p>
<h2>${app} will be able to</h2>
${scopeList(input.scopes)}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Continue</button>
</div>
</form>`,
  );
}
