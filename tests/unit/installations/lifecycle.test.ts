import { describe, expect, it } from "vitest";
import {
  ACCESS_TOKEN_LIFETIME_S,
  applyTransition,
  applyVerdict,
  consoleTransitionsFor,
  holdsRefreshToken,
  installationTransitions,
  LIFECYCLE_STATES,
  LIFECYCLE_TRANSITIONS,
  lifecycleTransition,
  tokenStateAt,
  verdictForError,
  type LifecycleFacts,
  type TokenFacts,
  type TransitionId,
} from "@/lib/installations/universal/lifecycle";

/**
 * The state model against the spec's table (section 3), row by row: each row's trigger, condition and next
 * state as the table says them, the transition taken from facts about a token, and what the console then
 * offers. Then the console's own reinstall, and how a failed call's error moves a token.
 */

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const HOUR = 3600_000;

const longLived: TokenFacts = { rotating: false, expiresAt: null, revoked: false };
const expiring = (expiresAt = NOW + 12 * HOUR): TokenFacts => ({ rotating: true, expiresAt, revoked: false });
const facts = (token: TokenFacts, rotationEnabled: boolean, extra: Partial<LifecycleFacts> = {}): LifecycleFacts => ({
  phase: "active",
  rotationEnabled,
  token,
  ...extra,
});

function taken(from: LifecycleFacts, id: TransitionId, at = NOW) {
  const outcome = applyTransition(from, id, at);
  if (!outcome.ok) throw new Error(`${id} refused: ${outcome.refusal}`);
  return outcome;
}

const offered = (token: TokenFacts, at = NOW, phase: LifecycleFacts["phase"] = "active") => consoleTransitionsFor(token, phase, at).map((t) => t.id);

function row(n: number) {
  const transition = LIFECYCLE_TRANSITIONS.find((t) => t.specRow === n);
  if (!transition) throw new Error(`no transition for row ${n}`);
  return transition;
}

describe("the spec's table, row by row", () => {
  it("has one transition per row, in the table's order, and the console's reinstall after them", () => {
    expect(LIFECYCLE_TRANSITIONS.map((t) => t.specRow)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, null]);
    expect(LIFECYCLE_STATES.map((s) => s.id)).toEqual(["long_lived", "expiring", "refresh_token", "expired", "revoked", "needs_reinstall", "uninstalled"]);
  });

  it("row 1 · Long-lived access token, oauth.v2.exchange, first exchange of this token: the original expires, an expiring access token and a refresh token are issued; the same token cannot be exchanged a second time", () => {
    expect(row(1)).toMatchObject({
      id: "exchange",
      state: "Long-lived access token (bot or user, granular)",
      trigger: "oauth.v2.exchange",
      condition: "First exchange of this token",
      from: ["long_lived"],
      to: "expiring",
      action: "exchange",
    });
    expect(offered(longLived)).toContain("exchange");
    const outcome = taken(facts(longLived, true), "exchange");
    expect(tokenStateAt(outcome.facts.token, "active", NOW)).toBe("expiring");
    expect(outcome.facts.token.expiresAt).toBe(NOW + ACCESS_TOKEN_LIFETIME_S * 1000);
    expect(holdsRefreshToken(outcome.facts.token, "active")).toBe(true);
    // The original expires, and is not exchanged twice; the new token offers no exchange either.
    expect(tokenStateAt(outcome.replaced!, "active", NOW)).toBe("expired");
    expect(applyTransition(facts(outcome.replaced!, true), "exchange", NOW)).toEqual({ ok: false, refusal: "token_already_exchanged" });
    expect(offered(outcome.facts.token)).not.toContain("exchange");
    // The platform refuses it while the app has no rotation (row 9 comes first).
    expect(applyTransition(facts(longLived, false), "exchange", NOW)).toEqual({ ok: false, refusal: "token_rotation_not_enabled" });
  });

  it("row 2 · Long-lived access token, auth.revoke by the app, used on the original token after exchange: the installation's authorization is revoked, and the console never offers it", () => {
    expect(row(2)).toMatchObject({
      id: "revoke_original",
      state: "Long-lived access token",
      trigger: "auth.revoke by the app",
      condition: "Used on the original token after exchange",
      next: "Installation's authorization is revoked",
      to: "needs_reinstall",
      action: null,
    });
    const original = taken(facts(longLived, true), "exchange").replaced!;
    const outcome = taken(facts(original, true), "revoke_original");
    expect(outcome.facts.phase).toBe("needs_reinstall");
    expect(tokenStateAt(outcome.facts.token, outcome.facts.phase, NOW)).toBe("needs_reinstall");
    expect(LIFECYCLE_TRANSITIONS.filter((t) => t.action !== null).map((t) => t.id)).not.toContain("revoke_original");
  });

  it("row 3 · Expiring access token, 12 hours pass, not refreshed in time: expired, and a call with it returns an error", () => {
    expect(row(3)).toMatchObject({
      id: "expire",
      state: "Expiring access token",
      trigger: "12 hours pass (expires_in seconds)",
      condition: "Not refreshed in time",
      to: "expired",
      action: null,
    });
    const token = taken(facts(longLived, true), "exchange").facts.token;
    expect(tokenStateAt(token, "active", NOW + 12 * HOUR - 1)).toBe("expiring");
    expect(applyTransition(facts(token, true), "expire", NOW + 12 * HOUR - 1)).toEqual({ ok: false, refusal: "not_expired_yet" });
    taken(facts(token, true), "expire", NOW + 12 * HOUR);
    expect(tokenStateAt(token, "active", NOW + 12 * HOUR)).toBe("expired");
    // Its refresh token still renews it: refresh is what the console offers, and no countdown, exchange or revoke.
    expect(offered(token, NOW + 12 * HOUR)).toEqual(["refresh"]);
  });

  it("row 4 · Refresh token, oauth.v2.access with grant_type=refresh_token, token is valid: a new access token and a new refresh token are issued; the previous access token is not invalidated immediately", () => {
    expect(row(4)).toMatchObject({
      id: "refresh",
      state: "Refresh token",
      trigger: "oauth.v2.access with grant_type=refresh_token",
      condition: "Token is valid",
      from: ["refresh_token"],
      to: "expiring",
      action: "refresh",
    });
    expect(row(4).next).toMatch(/^Revoked after a short grace period; new access token and new refresh token issued/);
    const later = NOW + 11 * HOUR;
    const outcome = taken(facts(expiring(), true), "refresh", later);
    expect(outcome.facts.token.expiresAt).toBe(later + 12 * HOUR);
    expect(outcome.facts.activeAccessTokens).toBe(2);
    // From expired or revoked too: the refresh token is what issues the new pair.
    expect(taken(facts(expiring(NOW - 1), true), "refresh").facts.token).toMatchObject({ revoked: false, expiresAt: NOW + 12 * HOUR });
    expect(taken(facts({ ...expiring(), revoked: true }, true), "refresh").facts.token.revoked).toBe(false);
    // Not without a refresh token, nor once the installation is gone.
    expect(applyTransition(facts(longLived, false), "refresh", NOW)).toEqual({ ok: false, refusal: "not_rotating" });
    expect(applyTransition(facts(expiring(), true, { phase: "needs_reinstall" }), "refresh", NOW)).toEqual({ ok: false, refusal: "invalid_refresh_token" });
  });

  it("row 5 · Active tokens refreshed repeatedly within 12 hours, oauth.v2.access, more than 2 tokens after the refresh: the oldest extra token is revoked, at most 2 stay active", () => {
    expect(row(5)).toMatchObject({
      id: "prune_oldest",
      state: "Active tokens (same token refreshed repeatedly within 12 hours)",
      trigger: "oauth.v2.access",
      condition: "More than 2 tokens exist after the refresh",
      next: "The oldest extra token is revoked",
      also: "At most 2 active tokens remain.",
      to: "revoked",
    });
    const first = taken(facts(expiring(), true), "refresh", NOW + HOUR);
    expect(first.alsoFired).toEqual([]);
    const second = taken(first.facts, "refresh", NOW + 2 * HOUR);
    expect(second.alsoFired).toEqual(["prune_oldest"]);
    expect(second.facts.activeAccessTokens).toBe(2);
    expect(applyTransition(second.facts, "prune_oldest", NOW)).toEqual({ ok: false, refusal: "at_most_two_active" });
    expect(taken({ ...second.facts, activeAccessTokens: 3 }, "prune_oldest").facts.activeAccessTokens).toBe(2);
  });

  it("row 6 · Any access token, auth.revoke, the app has token rotation: that single token is revoked, the installation stays", () => {
    expect(row(6)).toMatchObject({
      id: "revoke_with_rotation",
      state: "Any access token",
      trigger: "auth.revoke",
      condition: "App has token rotation",
      to: "revoked",
      action: "revoke",
    });
    expect(row(6).also).toMatch(/^The installation stays/);
    expect(offered(expiring())).toEqual(["refresh", "revoke_with_rotation"]);
    const outcome = taken(facts(expiring(), true), "revoke_with_rotation");
    expect(outcome.facts.phase).toBe("active");
    expect(tokenStateAt(outcome.facts.token, "active", NOW)).toBe("revoked");
    // A revoked token offers a refresh (its refresh token still works), never an exchange or a second revoke.
    expect(offered(outcome.facts.token)).toEqual(["refresh"]);
    expect(applyTransition(outcome.facts, "revoke_with_rotation", NOW)).toEqual({ ok: false, refusal: "token_revoked" });
  });

  it("row 7 · Any access token, auth.revoke, the app has no token rotation: usually the authorization is revoked, and the app must be reinstalled", () => {
    expect(row(7)).toMatchObject({
      id: "revoke_without_rotation",
      state: "Any access token",
      trigger: "auth.revoke",
      condition: "App has no token rotation",
      next: "Usually the authorization is revoked",
      also: "The user or team must reinstall the app.",
      to: "needs_reinstall",
      action: "revoke",
    });
    expect(offered(longLived)).toEqual(["exchange", "turn_on_rotation", "revoke_without_rotation"]);
    const outcome = taken(facts(longLived, false), "revoke_without_rotation");
    expect(outcome.facts.phase).toBe("needs_reinstall");
    // Dead: reinstall is all that is offered, no exchange, no refresh.
    expect(offered(outcome.facts.token, NOW, outcome.facts.phase)).toEqual(["reinstall"]);
    expect(installationTransitions(outcome.facts.phase).map((t) => t.id)).toEqual(["reinstall"]);
  });

  it("row 8 · Installation, apps.uninstall, any app with or without rotation: uninstalled, every token revoked", () => {
    expect(row(8)).toMatchObject({
      id: "uninstall",
      state: "Installation",
      trigger: "apps.uninstall",
      condition: "Any app, with or without rotation",
      next: "Uninstalled",
      also: "All tokens of the installation are revoked.",
      to: "uninstalled",
    });
    expect(installationTransitions("active").map((t) => t.id)).toEqual(["uninstall"]);
    for (const [token, rotation] of [
      [expiring(), true],
      [longLived, false],
    ] as const) {
      const outcome = taken(facts(token, rotation), "uninstall");
      expect(outcome.facts.phase).toBe("uninstalled");
      expect(outcome.facts.token.revoked).toBe(true);
      expect(tokenStateAt(outcome.facts.token, "uninstalled", NOW)).toBe("uninstalled");
      expect(holdsRefreshToken(outcome.facts.token, "uninstalled")).toBe(false);
      expect(offered(outcome.facts.token, NOW, "uninstalled")).toEqual(["reinstall"]);
    }
    expect(applyTransition(facts(expiring(), true, { phase: "uninstalled" }), "uninstall", NOW)).toEqual({ ok: false, refusal: "already_uninstalled" });
  });

  it("row 9 · App with token rotation off, turn on rotation, always allowed: rotation on for good, and tokens issued then must be refreshed within 12 hours", () => {
    expect(row(9)).toMatchObject({
      id: "turn_on_rotation",
      state: "App with token rotation off",
      condition: "Always allowed",
      next: "Token rotation on",
      also: "Rotation cannot be turned off again. Newly issued or migrated tokens must be refreshed within 12 hours.",
      action: "turn_on_rotation",
    });
    expect(row(9).trigger).toMatch(/settings\.token_rotation_enabled: true/);
    const on = taken(facts(longLived, false), "turn_on_rotation");
    expect(on.facts.rotationEnabled).toBe(true);
    // The token stays long-lived until it is exchanged; the exchanged one lasts 12 hours.
    expect(tokenStateAt(on.facts.token, "active", NOW)).toBe("long_lived");
    expect(taken(on.facts, "exchange").facts.token.expiresAt).toBe(NOW + 12 * HOUR);
    // There is no way back.
    expect(applyTransition(on.facts, "turn_on_rotation", NOW)).toEqual({ ok: false, refusal: "already_on" });
    expect(LIFECYCLE_TRANSITIONS.filter((t) => /turn (rotation )?off/i.test(t.trigger))).toEqual([]);
  });
});

describe("the console's own transition: reinstall", () => {
  it("brings an installation that needs reinstalling, or was uninstalled, back with new tokens: expiring with rotation, long-lived without", () => {
    expect(lifecycleTransition("reinstall")).toMatchObject({ specRow: null, from: ["needs_reinstall", "uninstalled"], action: "reinstall" });
    const withRotation = taken(facts(expiring(), true, { phase: "uninstalled" }), "reinstall");
    expect(withRotation.facts.phase).toBe("active");
    expect(tokenStateAt(withRotation.facts.token, "active", NOW)).toBe("expiring");
    const without = taken(facts(longLived, false, { phase: "needs_reinstall" }), "reinstall");
    expect(tokenStateAt(without.facts.token, "active", NOW)).toBe("long_lived");
    expect(applyTransition(facts(expiring(), true), "reinstall", NOW)).toEqual({ ok: false, refusal: "installed" });
  });
});

describe("what a failed call proves", () => {
  it("does what the table says: token_revoked is row 6 (that token alone, which proves rotation), needs_reinstall ends the authorization", () => {
    const alone = applyVerdict(facts(longLived, false), "token_revoked", NOW);
    expect(alone).toEqual(taken(facts(longLived, true), "revoke_with_rotation"));
    expect(applyVerdict(facts(expiring(), true), "needs_reinstall", NOW)).toMatchObject({ ok: true, facts: { phase: "needs_reinstall", token: expiring() } });
    expect(applyVerdict(facts(expiring(), true, { phase: "uninstalled" }), "needs_reinstall", NOW)).toEqual({ ok: false, refusal: "already_uninstalled" });
  });

  it("kills a rotating token on token_revoked or invalid_auth, and the whole installation when the token is long-lived", () => {
    expect(verdictForError("token_revoked", { rotating: true })).toBe("token_revoked");
    expect(verdictForError("invalid_auth", { rotating: true })).toBe("token_revoked");
    expect(verdictForError("token_revoked", { rotating: false })).toBe("needs_reinstall");
    expect(verdictForError("invalid_auth", { rotating: false })).toBe("needs_reinstall");
  });

  it("takes the installation on account_inactive, and a long-lived token answering token_expired (exchanged elsewhere)", () => {
    expect(verdictForError("account_inactive", { rotating: true })).toBe("needs_reinstall");
    expect(verdictForError("token_expired", { rotating: false })).toBe("needs_reinstall");
    // A rotating token's token_expired is a refresh away, not a death.
    expect(verdictForError("token_expired", { rotating: true })).toBeNull();
  });

  it("kills only that long-lived token when its app has rotation (row 6), a token_expired one too (exchanged elsewhere, row 1)", () => {
    expect(verdictForError("token_revoked", { rotating: false }, true)).toBe("token_revoked");
    expect(verdictForError("invalid_auth", { rotating: false }, true)).toBe("token_revoked");
    expect(verdictForError("token_expired", { rotating: false }, true)).toBe("token_revoked");
    expect(verdictForError("account_inactive", { rotating: false }, true)).toBe("needs_reinstall");
  });

  it("proves nothing on other errors", () => {
    for (const error of ["ratelimited", "missing_scope", "channel_not_found", "not_authed", undefined])
      expect(verdictForError(error, { rotating: true })).toBeNull();
  });
});

describe("what the console offers for a long-lived token follows the app's rotation setting when it is known", () => {
  const offeredWith = (rotation: boolean | null) => consoleTransitionsFor(longLived, "active", NOW, rotation).map((t) => t.id);
  it("offers exchange and the single-token revoke (row 6) with rotation on, and no Turn on rotation", () => {
    expect(offeredWith(true)).toEqual(["exchange", "revoke_with_rotation"]);
    expect(lifecycleTransition("revoke_with_rotation").from).toContain("long_lived");
  });
  it("offers turning rotation on and the revoke that takes the installation (row 7) with rotation off, and no exchange the platform would refuse", () => {
    expect(offeredWith(false)).toEqual(["turn_on_rotation", "revoke_without_rotation"]);
  });
  it("offers all three, the guided flow, when the console cannot tell", () => {
    expect(offeredWith(null)).toEqual(["exchange", "turn_on_rotation", "revoke_without_rotation"]);
  });
});

describe("what the console offers agrees with the state", () => {
  it("never offers an exchange or a refresh on a dead token, nor a refresh on a long-lived one", () => {
    for (const phase of ["needs_reinstall", "uninstalled"] as const) {
      for (const token of [longLived, expiring(), { ...expiring(), revoked: true }]) expect(offered(token, NOW, phase)).toEqual(["reinstall"]);
    }
    expect(offered(longLived)).not.toContain("refresh");
    expect(offered({ ...longLived, revoked: true })).toEqual([]);
  });
});
