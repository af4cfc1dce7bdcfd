import type { Viewer } from "@/lib/viewer";
/**
 * What these rules read of a record and its tokens (record.ts's InstallationRecord and StoredToken have
 * it; said here structurally, so record.ts can use the rules without an import cycle).
 */
interface Token {
  issuedAt?: number;
}
interface HoldsUserTokens<T extends Token> {
  user?: T;
  userHolder?: string;
  userTokens?: Record<string, T>;
  authedUserId?: string;
}

/**
 * User tokens belong to people. When several members of a workspace install the app with user scopes, each
 * keeps their own user token (one per installation and user: the store's token rows carry the user id);
 * the bot token is the installation's. A record read for a request carries the user token that request
 * acts with (`user`, whose it is in `userHolder`) and every one of them (`userTokens`), so a save puts the
 * acting one back in its holder's place and leaves the others as they were.
 *
 * Which one a request acts with:
 * - a signed-in member: their own, and only their own (a member who never installed with user scopes has none
 *   to use: acting as another person is not theirs to do);
 * - the operator of a console without sign-in, an admin without a token of their own, and the console's own
 *   work: the installation's, that of whoever installed it last (`authedUserId`), else one that names nobody
 *   (stored before tokens were per person), else the one issued last.
 */

/** "" keys the user token that names no person. */
export const NOBODY = "";

/** Whose user token a record acts with: a viewer's rights choose, or a holder already chosen is kept. */
export type UserTokenChoice = { viewer: Viewer } | { holder: string | undefined };

/** The installation's user token's holder: whoever installed it last, else one naming nobody, else the one issued last. */
export function installationHolder<T extends Token>(tokens: Record<string, T>, authedUserId: string | undefined): string | undefined {
  if (authedUserId !== undefined && tokens[authedUserId]) return authedUserId;
  if (tokens[NOBODY]) return NOBODY;
  let newest: string | undefined;
  for (const [holder, token] of Object.entries(tokens)) {
    if (newest === undefined || (token.issuedAt ?? 0) > (tokens[newest]!.issuedAt ?? 0)) newest = holder;
  }
  return newest;
}

/**
 * The holder whose token a viewer acts with: a member's own (the token naming nobody counts as the last
 * installer's: it was theirs before tokens were per person); an admin without one, and the operator, act
 * with the installation's.
 */
export function holderFor<T extends Token>(viewer: Viewer, tokens: Record<string, T>, authedUserId: string | undefined): string | undefined {
  if (viewer.kind === "member") {
    if (tokens[viewer.userId]) return viewer.userId;
    if (viewer.userId === authedUserId && tokens[NOBODY]) return NOBODY;
    if (!viewer.admin) return undefined;
  }
  return viewer.admin ? installationHolder(tokens, authedUserId) : undefined;
}

/** The record acting with `holder`'s user token (none when holder is undefined or holds none). */
export function actingAs<T extends Token, R extends HoldsUserTokens<T>>(record: R, tokens: Record<string, T>, holder: string | undefined): R {
  const { user: _user, userHolder: _holder, userTokens: _tokens, ...rest } = record;
  const token = holder === undefined ? undefined : tokens[holder];
  return {
    ...rest,
    ...(Object.keys(tokens).length > 0 ? { userTokens: tokens } : {}),
    ...(token && holder !== undefined ? { user: token, userHolder: holder } : {}),
  } as R;
}

/** Whose user token the record acts with; a record made in memory with a user token of no one's acts with that one. */
export function holderOf(record: HoldsUserTokens<Token>): string | undefined {
  return record.userHolder ?? (record.user && !record.userTokens ? NOBODY : undefined);
}

/** Every user token of a record with the acting one in its holder's place (what a save writes). */
export function allUserTokens<T extends Token>(record: HoldsUserTokens<T>): Record<string, T> {
  const tokens = { ...record.userTokens };
  const holder = holderOf(record);
  if (holder !== undefined) {
    if (record.user) tokens[holder] = record.user;
    else delete tokens[holder];
  }
  return tokens;
}

/** The record acting as the choice says, from every user token it holds (re-chosen after a change). */
export function chooseUserToken<T extends Token, R extends HoldsUserTokens<T>>(record: R, choice: UserTokenChoice): R {
  const tokens = allUserTokens(record);
  const holder = "holder" in choice ? choice.holder : holderFor(choice.viewer, tokens, record.authedUserId);
  return actingAs(record, tokens, holder);
}
