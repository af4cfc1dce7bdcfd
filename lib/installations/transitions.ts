import "server-only";
import { applyTransition, applyVerdict, type DeadTokenVerdict, type LifecycleFacts, type TokenFacts, type TransitionOutcome } from "./universal/lifecycle";
import type { InstallationRecord, StoredToken } from "./record";
import { TOKEN_KINDS, type TokenKind } from "./universal/token-kind";
import { installationPhase } from "./universal/view";

/**
 * The token lifecycle model (lifecycle.ts) taken on an installation record. The model decides where a
 * transition leads from the record's facts, or refuses it; this only writes that outcome back (the new
 * phase, a token revoked, a refreshed token), so the table the installations page draws is what the
 * actions do to a record. Values come from the platform (a refreshed token), never from the model.
 */

/** What the model knows of a kept token: never its value. */
export function factsOfStored(token: StoredToken): TokenFacts {
  return { rotating: Boolean(token.refreshToken), expiresAt: token.expiresAt ?? null, revoked: token.revoked ?? false };
}

/** A rotating token of the installation proves its app has rotation, which cannot be turned off (spec 3, row 9). */
export function provesRotation(installation: InstallationRecord): boolean {
  return TOKEN_KINDS.some((k) => Boolean(installation[k]?.refreshToken));
}

/** The model's facts for one token of the record; whether the app has rotation is the record's word unless the caller knows better. */
export function lifecycleFactsOf(installation: InstallationRecord, token: StoredToken, rotationEnabled = provesRotation(installation)): LifecycleFacts {
  return {
    phase: installationPhase({ state: installation.state, uninstalledAt: installation.uninstalledAt ?? null }),
    rotationEnabled,
    token: factsOfStored(token),
  };
}

/** The transitions the actions take on a record, with what the platform said that the model cannot know. */
export type RecordTransition =
  { id: "refresh"; issued: StoredToken } | { id: "revoke_with_rotation" } | { id: "revoke_without_rotation"; problem: string } | { id: "uninstall" };

export type RecordOutcome = { ok: true; installation: InstallationRecord } | { ok: false; refusal: string };

/**
 * Takes one of the model's transitions on the record's `kind` token, or says why the model refuses it.
 * `rotationEnabled` is what the caller learned of the app's rotation (a revoke that took only the token
 * proves it); the record's rotating tokens by default.
 */
export function takeTransition(
  installation: InstallationRecord,
  kind: TokenKind,
  transition: RecordTransition,
  nowMs: number,
  rotationEnabled?: boolean,
): RecordOutcome {
  const token = installation[kind];
  if (!token) return { ok: false, refusal: "no_token" };
  const outcome = applyTransition(lifecycleFactsOf(installation, token, rotationEnabled), transition.id, nowMs);
  const problem = transition.id === "revoke_without_rotation" ? transition.problem : undefined;
  return written(installation, kind, outcome, nowMs, problem, transition.id === "refresh" ? transition.issued : undefined);
}

/**
 * What a dead answer does to the record (the model's applyVerdict): `token_revoked` revokes that token,
 * `needs_reinstall` ends the installation's authorization, with `problem` as the reason it gives.
 */
export function takeVerdict(installation: InstallationRecord, kind: TokenKind, verdict: DeadTokenVerdict, problem: string, nowMs: number): RecordOutcome {
  const token = installation[kind];
  if (!token) return { ok: false, refusal: "no_token" };
  return written(installation, kind, applyVerdict(lifecycleFactsOf(installation, token), verdict, nowMs), nowMs, problem);
}

/** The record as the model's outcome leaves it. */
function written(
  installation: InstallationRecord,
  kind: TokenKind,
  outcome: TransitionOutcome,
  nowMs: number,
  problem: string | undefined,
  issued?: StoredToken,
): RecordOutcome {
  if (!outcome.ok) return outcome;
  const { facts } = outcome;
  if (facts.phase === "uninstalled") {
    // Every token (each person's user token too) and the webhook died with it: the record keeps only what names it, and its timeline.
    const { bot: _bot, user: _user, userHolder: _holder, userTokens: _userTokens, incomingWebhook: _hook, ...rest } = installation;
    return { ok: true, installation: { ...rest, state: "needs_reinstall", problem: "uninstalled", uninstalledAt: nowMs, updatedAt: nowMs } };
  }
  const token = installation[kind]!;
  let updated: InstallationRecord = { ...installation, updatedAt: nowMs };
  if (issued) updated = { ...updated, [kind]: issued };
  else if (facts.token.revoked && !token.revoked) updated = { ...updated, [kind]: { ...token, revoked: true } };
  if (facts.phase === "needs_reinstall") updated = { ...updated, state: "needs_reinstall", ...(problem !== undefined ? { problem } : {}) };
  return { ok: true, installation: updated };
}

/**
 * The record a transition the action already knows the model allows leads to (it checked before asking the
 * platform, or the platform's answer left no other way). A refusal here is a bug in the console, said as one.
 */
export function mustTake(outcome: RecordOutcome, what: string): InstallationRecord {
  if (!outcome.ok) throw new Error(`the lifecycle model refused ${what} (${outcome.refusal})`);
  return outcome.installation;
}
