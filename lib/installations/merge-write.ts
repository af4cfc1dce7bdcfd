import { type InstallationRecord, type StoredToken } from "./record";
import { derivedIssuedAt } from "./store-mapping";
import { TOKEN_KINDS } from "./universal/token-kind";

function sameToken(a: StoredToken, b: StoredToken): boolean {
  return a.value === b.value;
}

/**
 * What to write when another request wrote the installation since `mine` was read. Each token kind keeps
 * the later-issued token (the same token keeps this write's flags, a revocation from either side kept); a
 * token this write dropped stays dropped only when this write ended the authorization (an uninstall), and
 * one the other dropped (its uninstall) stays dropped unless this write's is newer. The state and problem
 * come from whichever record changed later.
 */
export function mergeWrite(mine: InstallationRecord, stored: InstallationRecord): InstallationRecord {
  const merged: InstallationRecord = mine.updatedAt >= stored.updatedAt ? { ...mine } : { ...mine, state: stored.state, updatedAt: stored.updatedAt };
  if (mine.updatedAt < stored.updatedAt) {
    if (stored.problem) merged.problem = stored.problem;
    else delete merged.problem;
    if (stored.uninstalledAt) merged.uninstalledAt = stored.uninstalledAt;
    else delete merged.uninstalledAt;
  }
  for (const kind of TOKEN_KINDS) {
    const a = mine[kind];
    const b = stored[kind];
    let token: StoredToken | undefined;
    if (a && b) {
      token = sameToken(a, b) ? { ...a, ...(a.revoked || b.revoked ? { revoked: true } : {}) } : derivedIssuedAt(a, mine) >= derivedIssuedAt(b, stored) ? a : b;
    } else if (b) {
      token = mine.uninstalledAt ? undefined : b;
    } else if (a) {
      token = stored.uninstalledAt && derivedIssuedAt(a, mine) <= stored.uninstalledAt ? undefined : a;
    }
    if (token) merged[kind] = token;
    else delete merged[kind];
  }
  // An authorization another write ended stays ended, whichever wrote last, unless this write brings a newer one
  // (a grant: a token issued after it ended). A refresh of one person's token racing the bot token's refusal is not one.
  const newerGrant = [mine.bot, mine.user].some((t) => t && derivedIssuedAt(t, mine) > stored.updatedAt);
  if (stored.state === "needs_reinstall" && merged.state === "active" && !newerGrant) {
    merged.state = "needs_reinstall";
    if (stored.problem) merged.problem = stored.problem;
    if (stored.uninstalledAt) merged.uninstalledAt = stored.uninstalledAt;
  }
  if (!mine.incomingWebhook && stored.incomingWebhook && !mine.uninstalledAt) merged.incomingWebhook = stored.incomingWebhook;
  // Which emulator issued the tokens, and the bot's id, are the stored record's (a reinstall or a first read
  // set them since this write read it), unless this write is that newer grant.
  if (!newerGrant) {
    if (stored.upstreamInstanceId) merged.upstreamInstanceId = stored.upstreamInstanceId;
    if (stored.botId) merged.botId = stored.botId;
  }
  // A write changes the bot token and its holder's user token (merged above, and put in its place by the save):
  // the other people's are the store's, unless this write ended the authorization (their tokens died with it).
  merged.userTokens = mine.uninstalledAt ? {} : { ...stored.userTokens };
  return merged;
}
