/**
 * The OAuth consent page ({base}/oauth/v2/authorize); a request it cannot show gets core/html.ts's error page.
 * Its scope list is also the "Sign in with" page's (openid/sign-in-page.ts).
 */
import { escapeHtml, layout } from "../core/html";

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  "app_mentions:read": "View messages that directly mention the app",
  "channels:join": "Join public channels",
  "channels:read": "View basic information about public channels",
  "channels:history": "View messages in public channels",
  "chat:write": "Send messages",
  "chat:write.public": "Send messages to channels it isn't a member of",
  "groups:read": "View basic information about private channels",
  "incoming-webhook": "Post messages to a specific channel",
  "users:read": "View people in the workspace",
  "users:read.email": "View email addresses of people in the workspace",
  // "Sign in with" (openid/sign-in-page.ts).
  openid: "Confirm who you are",
  profile: "View your name, profile picture and the workspace's name and icon",
  email: "View your email address",
};

export interface ConsentPageInput {
  appName: string;
  teamName: string;
  teamDomain: string;
  botScopes: string[];
  userScopes: string[];
  /**
   * Who installs (the platform's signed-in person; here one picks, as on the "Sign in with" page): the
   * member whose user token the install issues, its authed_user. `selectedUserId` is preselected.
   */
  members: { id: string; realName: string; name: string }[];
  selectedUserId: string;
  /** The channel picker, when incoming-webhook is requested. */
  channels?: { id: string; name: string }[];
  selectedChannelId?: string;
  /** Where the form posts: the same authorize URL, query string included. */
  actionUrl: string;
  /** The other workspaces the person could install into instead, each with its consent page. */
  otherWorkspaces?: { name: string; url: string }[];
}

export function scopeList(scopes: string[]): string {
  const items = scopes.map((scope) => {
    const description = SCOPE_DESCRIPTIONS[scope];
    return `<li>${escapeHtml(scope)}${description ? ` <span class="meta">— ${escapeHtml(description)}</span>` : ""}</li>`;
  });
  return `<ul class="scopes">${items.join("")}</ul>`;
}

export function renderConsentPage(input: ConsentPageInput): string {
  const app = escapeHtml(input.appName);
  const team = escapeHtml(input.teamName);
  const sections: string[] = [];
  if (input.botScopes.length > 0) {
    sections.push(`<h2>What ${app} will be able to do as a bot</h2>${scopeList(input.botScopes)}`);
  }
  if (input.userScopes.length > 0) {
    sections.push(`<h2>What ${app} will be able to do on your behalf</h2>${scopeList(input.userScopes)}`);
  }
  const people = input.members
    .map(
      (m) =>
        `<option value="${escapeHtml(m.id)}"${m.id === input.selectedUserId ? " selected" : ""}>${escapeHtml(m.realName)} (@${escapeHtml(m.name)})</option>`,
    )
    .join("");
  sections.push(
    `<label for="user_id">Installing as</label>` +
      `<select id="user_id" name="user_id" required>${people}</select>` +
      `<p class="meta">The member who allows the install${input.userScopes.length > 0 ? ": the app acts on their behalf with a user token of their own" : ""}.</p>`,
  );
  if (input.channels) {
    const options = input.channels
      .map((c) => `<option value="${escapeHtml(c.id)}"${c.id === input.selectedChannelId ? " selected" : ""}>#${escapeHtml(c.name)}</option>`)
      .join("");
    sections.push(
      `<label for="channel_id">Where should ${app} post?</label>` +
        `<select id="channel_id" name="channel_id" required>${options}</select>` +
        `<p class="meta">The app gets an incoming webhook that posts to this channel.</p>`,
    );
  }
  return layout(
    `${input.appName} is requesting permission to access the ${input.teamName} workspace`,
    `<form class="card" method="post" action="${escapeHtml(input.actionUrl)}">
<h1>${app} is requesting permission to access the ${team} workspace</h1>
<p class="lead">${team} <span class="meta">(${escapeHtml(input.teamDomain)})</span></p>
${
  input.otherWorkspaces
    ? `<p class="meta">Another workspace: ${input.otherWorkspaces.map((w) => `<a href="${escapeHtml(w.url)}">${escapeHtml(w.name)}</a>`).join(", ")}</p>`
    : ""
}
${sections.join("\n")}
<div class="actions">
<button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
</div>
</form>`,
  );
}
