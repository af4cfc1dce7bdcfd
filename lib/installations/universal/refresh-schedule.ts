/**
 * When the background refresher plans to refresh a rotating token (browser-safe: the dashboard shows the
 * same time the server acts on). A token is refreshed `horizonS` before it expires, less a share of
 * `spreadS` fixed by which token it is, so tokens issued together (one install of many workspaces, a moved
 * clock) are refreshed spread over that window rather than all at once. After its refresh the next token
 * lives 12 hours: one refresh per token lifetime.
 */

/** What names one token: an installation's bot token, or one person's user token. */
export interface ScheduledToken {
  installationId: string;
  kind: "bot" | "user";
  /** The person whose user token it is (none for the bot token, or a user token naming nobody). */
  userId?: string | null;
}

/** FNV-1a over the token's name: the same share of the spread on every instance and in the browser. */
function spreadShare(token: ScheduledToken): number {
  let hash = 0x811c9dc5;
  for (const char of `${token.installationId}:${token.kind}:${token.userId ?? ""}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}

/** The platform's time (epoch ms) at which the token is due for its background refresh. */
export function plannedRefreshAt(token: ScheduledToken, expiresAt: number, horizonS: number, spreadS: number): number {
  return expiresAt - horizonS * 1000 - Math.floor(spreadShare(token) * spreadS * 1000);
}

/** What the dashboard shows of the refresher (GET /api/session's `refresher`). */
export interface RefresherView {
  enabled: boolean;
  horizonS: number;
  spreadS: number;
  intervalS: number;
  /** This instance's refresher: whether its last pass worked, and what it did. */
  health: RefresherHealth | null;
}

export interface RefresherHealth {
  state: "starting" | "healthy" | "failing";
  /** Server time (epoch ms) of the last pass that ended, and how long it took. */
  lastRunAt: number | null;
  lastRunMs: number | null;
  /** Why the last pass failed (the store or the platform unreachable), when it did. */
  lastError: string | null;
  /** Since this instance started. */
  refreshed: number;
  failed: number;
  needsReinstall: number;
  /** Tokens whose refresh failed for a passing reason and waits for its retry. */
  backingOff: number;
}
