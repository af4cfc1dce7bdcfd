/**
 * Installations made without the OAuth flow, many at once (`POST {base}/admin/installations/seed`): for a
 * console that wants to see 100,000 installations, or a bench that measures them. Each gets a workspace of
 * its own (named `<prefix> <number>`, with a few members and channels), the app's bot user in it, and
 * tokens as an install would issue them: with the app's rotation, an expiring pair issued at a staggered
 * time in the last 12 hours (so expiries spread over the next 12 hours, as a real population's do), or a
 * long-lived token; for some, the installer's user token too. Everything after is the platform's usual
 * behaviour: auth.test, refreshes and revocations work on them as on any installation.
 */
import { randomBytes } from "node:crypto";
import { touch } from "../core/change-tracking";
import { issueRotatingPair, issueToken, EXPIRING_TOKEN_LIFETIME_S } from "../tokens/tokens";
import type { App, EmulatorState, Installation, TokenRecord } from "../types";
import { addBotUser, installingUserId } from "../workspace/members";
import { createWorkspace, type Workspace } from "../workspace/workspace";

export interface SeedSpec {
  /** How many installations (and workspaces) to make. */
  count: number;
  /** The number of the first (its workspace is `<prefix> <first>`): a large seed comes in batches. */
  first: number;
  /** Workspace names: `<prefix> 00042`. */
  namePrefix: string;
  /** Digits of the number in a name (zero-padded), so names sort as numbers do. */
  digits: number;
  /** Share (0..1) of installations whose tokens rotate (the app must have rotation on); the others get long-lived tokens. */
  rotatingShare: number;
  /** Share (0..1) of installations that also hold the installer's user token. */
  userShare: number;
  /** Members of each workspace. */
  users: number;
}

export interface SeededToken {
  value: string;
  refreshToken?: string;
  expiresAt?: number;
  issuedAt: number;
  scopes: string[];
}

export interface SeededInstallation {
  installation: Installation;
  team: { id: string; name: string };
  bot: SeededToken;
  user?: SeededToken;
}

/** Channels a seeded workspace keeps (#general, #random, #announcements): enough to post to, cheap at 100,000. */
const SEEDED_CHANNELS = 3;
const LIFETIME_MS = EXPIRING_TOKEN_LIFETIME_S * 1000;
/** Staggered issue times stay this far from a full lifetime, so no seeded token is expired on arrival. */
const MARGIN_MS = 5 * 60_000;

/** A well-spread fraction in [0, 1) for the n-th installation (an additive recurrence): shares and staggers without randomness. */
function spread(n: number, step: number): number {
  const x = n * step;
  return x - Math.floor(x);
}

/** A new workspace for the seed's n-th installation; another seed when its team id is taken (ids are 32-bit scrambles). */
function seededWorkspace(state: EmulatorState, baseSeed: string, n: number, name: string, users: number): Workspace {
  for (let attempt = 0; ; attempt++) {
    const ws = createWorkspace({ seed: `${baseSeed}#seeded-${n}${attempt ? `~${attempt}` : ""}`, users, name, channels: SEEDED_CHANNELS });
    if (!state.workspaces.has(ws.team.id)) return ws;
  }
}

function seededToken(access: TokenRecord, refresh: TokenRecord | undefined, scopes: string[]): SeededToken {
  return {
    value: access.value,
    ...(refresh ? { refreshToken: refresh.value } : {}),
    ...(access.expiresAt !== undefined ? { expiresAt: access.expiresAt } : {}),
    issuedAt: access.issuedAt,
    scopes,
  };
}

function randomInstallationId(): string {
  return `I0${randomBytes(5).toString("hex").toUpperCase().slice(0, 9)}`;
}

/** An id no installation holds: 36 random bits clash about once in 14 seeds of 100,000, and a clash would hand one installation's tokens to the other. */
function freshInstallationId(state: EmulatorState, nextId: () => string): string {
  for (;;) {
    const id = nextId();
    if (!state.installations.has(id)) return id;
  }
}

/** `nextId` is the random id source (a test forces clashes with it). */
export function seedInstallations(
  state: EmulatorState,
  app: App,
  spec: SeedSpec,
  baseSeed: string,
  now: number,
  nextId: () => string = randomInstallationId,
): SeededInstallation[] {
  const seeded: SeededInstallation[] = [];
  for (let n = spec.first; n < spec.first + spec.count; n++) {
    const name = `${spec.namePrefix} ${String(n).padStart(spec.digits, "0")}`;
    const ws = seededWorkspace(state, baseSeed, n, name, spec.users);
    state.workspaces.set(ws.team.id, ws);
    const rotating = app.tokenRotationEnabled && spread(n, 0.6180339887) < spec.rotatingShare;
    const withUser = app.userScopes.length > 0 && spread(n, 0.7548776662) < spec.userShare;
    // Rotating: issued somewhere in the last 12 hours, so its expiry falls somewhere in the next 12.
    const issuedAt = rotating
      ? now - Math.floor(spread(n, 0.569840291) * (LIFETIME_MS - MARGIN_MS))
      : now - Math.floor(spread(n, 0.569840291) * 30 * 86_400_000);
    const bot = addBotUser(ws, { appId: app.id, appName: app.name }, issuedAt);
    const installation: Installation = {
      id: freshInstallationId(state, nextId),
      teamId: ws.team.id,
      appId: app.id,
      botUserId: bot.userId,
      botId: bot.botId,
      authedUserId: installingUserId(ws),
      botScopes: [...app.botScopes],
      userScopes: withUser ? [...app.userScopes] : [],
      installedAt: issuedAt,
      uninstalled: false,
      refreshGrants: 0,
      refreshRequests: 0,
      joinedChannels: new Set(),
    };
    state.installations.set(installation.id, installation);
    touch(installation);
    const issue = (family: "bot" | "user", scopes: string[]): SeededToken => {
      if (rotating) {
        const pair = issueRotatingPair(state, installation, family, issuedAt);
        return seededToken(pair.access, pair.refresh, scopes);
      }
      return seededToken(issueToken(state, installation, { kind: family, family, rotating: false, now: issuedAt }), undefined, scopes);
    };
    seeded.push({
      installation,
      team: { id: ws.team.id, name: ws.team.name },
      bot: issue("bot", app.botScopes),
      ...(withUser ? { user: issue("user", app.userScopes) } : {}),
    });
  }
  return seeded;
}
