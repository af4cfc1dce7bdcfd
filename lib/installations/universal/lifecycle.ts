/**
 * The token lifecycle of the spec's section 3 ("States and transitions"), as data and pure functions: the
 * states a credential of an installation can be in, the table's transitions row by row (trigger, condition,
 * next state, what else happens), and, for a token the console holds now, its state and the transitions the
 * console can take from there. The installations page draws it (components/installations/lifecycle-diagram)
 * and its buttons come from it, so a badge, a countdown and a button cannot disagree with the state; the
 * actions take its transitions on the records they write (transitions.ts: refresh, revoke, uninstall, and
 * what a dead answer proves), so the table drawn is what the console does.
 * No I/O and no secrets: it works on facts about a token (rotating, expiry, revoked), never on its value.
 */

/** Seconds an expiring access token lives (spec 2.1 and 8: always 43200). */
export const ACCESS_TOKEN_LIFETIME_S = 43_200;
/** Access tokens of one refresh chain that stay active when one is refreshed repeatedly within 12 hours (spec 8). */
export const MAX_ACTIVE_ACCESS_TOKENS = 2;

export type LifecycleStateId = "long_lived" | "expiring" | "refresh_token" | "expired" | "revoked" | "needs_reinstall" | "uninstalled";

export interface LifecycleState {
  id: LifecycleStateId;
  /** As the spec names it. */
  label: string;
  /** Two words, for the diagram's boxes. */
  short: string;
  /** What holds in this state. */
  summary: string;
}

export const LIFECYCLE_STATES: readonly LifecycleState[] = [
  { id: "long_lived", label: "Long-lived access token", short: "Long-lived token", summary: "Never expires; issued without rotation (bot or user, granular)." },
  { id: "expiring", label: "Expiring access token", short: "Expiring token", summary: "Lasts 12 hours (expires_in 43200 s)." },
  { id: "refresh_token", label: "Refresh token", short: "Refresh token", summary: "Single use: renews the access token with a new pair." },
  { id: "expired", label: "Expired access token", short: "Expired", summary: "An API call with it returns an error." },
  { id: "revoked", label: "Revoked token", short: "Revoked", summary: "That single token no longer works; the installation stays." },
  {
    id: "needs_reinstall",
    label: "Installation needs reinstall",
    short: "Needs reinstall",
    summary: "The installation's authorization is revoked: the user must redo the whole installation.",
  },
  { id: "uninstalled", label: "Uninstalled", short: "Uninstalled", summary: "apps.uninstall revoked every token of the installation." },
];

export function lifecycleState(id: LifecycleStateId): LifecycleState {
  return LIFECYCLE_STATES.find((s) => s.id === id)!;
}

export type TransitionId =
  | "exchange"
  | "revoke_original"
  | "expire"
  | "refresh"
  | "prune_oldest"
  | "revoke_with_rotation"
  | "revoke_without_rotation"
  | "uninstall"
  | "turn_on_rotation"
  | "reinstall";

/** What the console does to take a transition: a button (or, for rotation, the app settings page). */
export type ConsoleAction = "exchange" | "refresh" | "revoke" | "uninstall" | "reinstall" | "turn_on_rotation";

export interface LifecycleTransition {
  id: TransitionId;
  /** Its row in the spec's table (section 3), counted from 1; null for the console's own (reinstall). */
  specRow: number | null;
  /** The table's "State" column, in its words. */
  state: string;
  /** Where it starts, as the model's states. */
  from: readonly LifecycleStateId[];
  /** The state it leads to. */
  to: LifecycleStateId;
  trigger: string;
  condition: string;
  /** The spec's "Next state", in its words. */
  next: string;
  also: string;
  /** How the console takes it; null when it is not the console's to take (time passing, the platform). */
  action: ConsoleAction | null;
  /** A word or two for the diagram's arrow. */
  short: string;
}

const ACTIVE_STATES: readonly LifecycleStateId[] = ["long_lived", "expiring", "refresh_token", "expired", "revoked"];

/** The spec's table, one entry per row, in its order; then the console's reinstall. */
export const LIFECYCLE_TRANSITIONS: readonly LifecycleTransition[] = [
  {
    id: "exchange",
    specRow: 1,
    state: "Long-lived access token (bot or user, granular)",
    from: ["long_lived"],
    to: "expiring",
    trigger: "oauth.v2.exchange",
    condition: "First exchange of this token",
    next: "Original token expires; expiring access token and refresh token issued",
    also: "The same token cannot be exchanged a second time.",
    action: "exchange",
    short: "exchange",
  },
  {
    id: "revoke_original",
    specRow: 2,
    state: "Long-lived access token",
    from: ["long_lived"],
    to: "needs_reinstall",
    trigger: "auth.revoke by the app",
    condition: "Used on the original token after exchange",
    next: "Installation's authorization is revoked",
    also: "The user must redo the whole installation. The original token must not be revoked this way; auth.test is used to confirm it no longer works.",
    action: null,
    short: "revoke original",
  },
  {
    id: "expire",
    specRow: 3,
    state: "Expiring access token",
    from: ["expiring"],
    to: "expired",
    trigger: "12 hours pass (expires_in seconds)",
    condition: "Not refreshed in time",
    next: "Expired",
    also: "An API call with it returns an error.",
    action: null,
    short: "12 h pass",
  },
  {
    id: "refresh",
    specRow: 4,
    state: "Refresh token",
    from: ["refresh_token"],
    to: "expiring",
    trigger: "oauth.v2.access with grant_type=refresh_token",
    condition: "Token is valid",
    next: "Revoked after a short grace period; new access token and new refresh token issued",
    also: "The previously issued access token is not invalidated immediately.",
    action: "refresh",
    short: "refresh",
  },
  {
    id: "prune_oldest",
    specRow: 5,
    state: "Active tokens (same token refreshed repeatedly within 12 hours)",
    from: ["expiring"],
    to: "revoked",
    trigger: "oauth.v2.access",
    condition: "More than 2 tokens exist after the refresh",
    next: "The oldest extra token is revoked",
    also: "At most 2 active tokens remain.",
    action: null,
    short: "3rd token",
  },
  {
    id: "revoke_with_rotation",
    specRow: 6,
    state: "Any access token",
    // Any: a long-lived token not yet exchanged too, once its app has rotation (the emulator revokes only it).
    from: ["long_lived", "expiring", "refresh_token"],
    to: "revoked",
    trigger: "auth.revoke",
    condition: "App has token rotation",
    next: "That single token (refresh token, expiring bot token or expiring user token) is revoked",
    also: "The installation stays; events are still delivered; new tokens can still be generated in the app configuration interface.",
    action: "revoke",
    short: "revoke",
  },
  {
    id: "revoke_without_rotation",
    specRow: 7,
    state: "Any access token",
    from: ["long_lived"],
    to: "needs_reinstall",
    trigger: "auth.revoke",
    condition: "App has no token rotation",
    next: "Usually the authorization is revoked",
    also: "The user or team must reinstall the app.",
    action: "revoke",
    short: "revoke",
  },
  {
    id: "uninstall",
    specRow: 8,
    state: "Installation",
    from: ACTIVE_STATES,
    to: "uninstalled",
    trigger: "apps.uninstall",
    condition: "Any app, with or without rotation",
    next: "Uninstalled",
    also: "All tokens of the installation are revoked.",
    action: "uninstall",
    short: "uninstall",
  },
  {
    id: "turn_on_rotation",
    specRow: 9,
    state: "App with token rotation off",
    from: ["long_lived"],
    to: "long_lived",
    trigger: "Turn on rotation (app configuration, or manifest setting settings.token_rotation_enabled: true)",
    condition: "Always allowed",
    next: "Token rotation on",
    also: "Rotation cannot be turned off again. Newly issued or migrated tokens must be refreshed within 12 hours.",
    action: "turn_on_rotation",
    short: "rotation on",
  },
  {
    id: "reinstall",
    specRow: null,
    state: "Installation needing reinstall, or uninstalled",
    from: ["needs_reinstall", "uninstalled"],
    to: "expiring",
    trigger: "OAuth install again (Add to workspace)",
    condition: "The user redoes the whole installation",
    next: "New tokens: expiring ones with a refresh token when the app has rotation, long-lived ones without",
    also: "The console keeps the installation's record and timeline.",
    action: "reinstall",
    short: "reinstall",
  },
];

export function lifecycleTransition(id: TransitionId): LifecycleTransition {
  return LIFECYCLE_TRANSITIONS.find((t) => t.id === id)!;
}

/** What the console knows of one access token: never its value. */
export interface TokenFacts {
  /** It came with a refresh token: issued with rotation, or exchanged. */
  rotating: boolean;
  /** Epoch ms; null for a long-lived token. */
  expiresAt: number | null;
  /** auth.revoke took it, or a call proved it revoked. */
  revoked: boolean;
  /** A long-lived original after its exchange (row 1). The console never keeps one; the model describes it. */
  exchanged?: boolean;
}

/** Where the installation as a whole stands. */
export type InstallationPhase = "active" | "needs_reinstall" | "uninstalled";

/** The state of one access token now. Installation-wide states come first: a dead installation's tokens are dead. */
export function tokenStateAt(token: TokenFacts, phase: InstallationPhase, nowMs: number): LifecycleStateId {
  if (phase === "uninstalled") return "uninstalled";
  if (phase === "needs_reinstall") return "needs_reinstall";
  if (token.revoked) return "revoked";
  if (!token.rotating) return token.exchanged ? "expired" : "long_lived";
  if (token.expiresAt !== null && token.expiresAt <= nowMs) return "expired";
  return "expiring";
}

/** Whether the token's single-use refresh token can still be spent: it came with one and the installation lives. */
export function holdsRefreshToken(token: TokenFacts, phase: InstallationPhase): boolean {
  return phase === "active" && token.rotating;
}

/**
 * Whether the app has token rotation, as far as the console knows: true or false when it could read the
 * app's setting (the emulator, or the platform with a configuration token), null when it cannot.
 */
export type KnownRotation = boolean | null;

/**
 * The transitions the console can take for this token from where it stands, in the order its buttons
 * show: for a long-lived token, exchange (once) and revoke when its app has rotation; turning rotation on
 * (the app settings page) and the revoke that takes the installation with it when it has not; all three
 * when the console cannot tell, and the platform then says. Refresh and revoke for an expiring one; refresh
 * alone once it expired or was revoked (its refresh token issues a new pair); reinstall once the
 * installation is gone. Never exchange on a revoked or dead token, never refresh without a refresh token.
 */
export function consoleTransitionsFor(token: TokenFacts, phase: InstallationPhase, nowMs: number, rotation: KnownRotation = null): LifecycleTransition[] {
  const state = tokenStateAt(token, phase, nowMs);
  const ids: TransitionId[] = (() => {
    switch (state) {
      case "long_lived":
        if (rotation === true) return ["exchange", "revoke_with_rotation"];
        if (rotation === false) return ["turn_on_rotation", "revoke_without_rotation"];
        return ["exchange", "turn_on_rotation", "revoke_without_rotation"];
      case "expiring":
        return ["refresh", "revoke_with_rotation"];
      case "expired":
      case "revoked":
        return token.rotating ? ["refresh"] : [];
      case "needs_reinstall":
      case "uninstalled":
        return ["reinstall"];
      case "refresh_token":
        return ["refresh", "revoke_with_rotation"];
    }
  })();
  return ids.map(lifecycleTransition);
}

/** The installation-wide transitions the console offers: uninstall while it lives, reinstall once it is gone. */
export function installationTransitions(phase: InstallationPhase): LifecycleTransition[] {
  return [lifecycleTransition(phase === "active" ? "uninstall" : "reinstall")];
}

/**
 * What an error answered with a token proves (auth.test, or any call): `account_inactive` means the
 * installation is gone (row 8). `token_revoked` and `invalid_auth` kill that one token when its app has
 * rotation (row 6: a rotating token's refresh token may still issue a new one) and the whole authorization
 * when it has not (row 7). `token_expired` on a long-lived token means it was exchanged elsewhere (row 1):
 * with rotation that token alone is dead. Anything else proves nothing. Whether the app has rotation is
 * the token's own word unless the caller knows better: a rotating token of the same installation proves
 * it (rotation cannot be turned off, row 9).
 */
export type DeadTokenVerdict = "token_revoked" | "needs_reinstall";

export function verdictForError(error: string | undefined, token: Pick<TokenFacts, "rotating">, rotationEnabled = token.rotating): DeadTokenVerdict | null {
  switch (error) {
    case "account_inactive":
      return "needs_reinstall";
    case "token_revoked":
    case "invalid_auth":
      return token.rotating || rotationEnabled ? "token_revoked" : "needs_reinstall";
    case "token_expired":
      if (token.rotating) return null;
      return rotationEnabled ? "token_revoked" : "needs_reinstall";
    default:
      return null;
  }
}

/** Everything a transition reads or changes: the installation, the app's rotation setting, one access token. */
export interface LifecycleFacts {
  phase: InstallationPhase;
  rotationEnabled: boolean;
  token: TokenFacts;
  /** Access tokens of this token's refresh chain still active (row 5); 1 when absent. */
  activeAccessTokens?: number;
}

export type TransitionOutcome =
  | {
      ok: true;
      facts: LifecycleFacts;
      /** The token it replaced, as it now is (the exchanged original). */
      replaced?: TokenFacts;
      /** Rows that fired along with it (a refresh that pruned the oldest token). */
      alsoFired: TransitionId[];
    }
  | { ok: false; refusal: string };

const refuse = (refusal: string): TransitionOutcome => ({ ok: false, refusal });

/**
 * Takes one transition, as the spec's table says, or says why it cannot be taken from these facts (the
 * platform's error code where it has one). Time passing is a transition too ("expire"), taken once the
 * expiry is reached.
 */
export function applyTransition(facts: LifecycleFacts, id: TransitionId, nowMs: number): TransitionOutcome {
  const { token, phase } = facts;
  const state = tokenStateAt(token, phase, nowMs);
  const fresh = (): TokenFacts => ({ rotating: true, expiresAt: nowMs + ACCESS_TOKEN_LIFETIME_S * 1000, revoked: false });
  const done = (next: Partial<LifecycleFacts>, extra: { replaced?: TokenFacts; alsoFired?: TransitionId[] } = {}): TransitionOutcome => ({
    ok: true,
    facts: { ...facts, ...next },
    ...(extra.replaced ? { replaced: extra.replaced } : {}),
    alsoFired: extra.alsoFired ?? [],
  });
  switch (id) {
    case "exchange":
      if (token.exchanged) return refuse("token_already_exchanged");
      if (state !== "long_lived") return refuse("not_long_lived");
      if (!facts.rotationEnabled) return refuse("token_rotation_not_enabled");
      return done({ token: fresh(), activeAccessTokens: 1 }, { replaced: { ...token, exchanged: true } });
    case "revoke_original":
      if (phase !== "active" || !token.exchanged) return refuse("not_an_exchanged_original");
      return done({ phase: "needs_reinstall" });
    case "expire":
      // Judged at the moment it fires: by then the token reads as expired.
      if (phase !== "active" || token.revoked || !token.rotating || token.expiresAt === null) return refuse("does_not_expire");
      if (token.expiresAt > nowMs) return refuse("not_expired_yet");
      return done({});
    case "refresh": {
      if (phase !== "active" || !token.rotating) return refuse(phase === "active" ? "not_rotating" : "invalid_refresh_token");
      const active = (facts.activeAccessTokens ?? 1) + 1;
      const pruned = active > MAX_ACTIVE_ACCESS_TOKENS;
      return done({ token: fresh(), activeAccessTokens: Math.min(active, MAX_ACTIVE_ACCESS_TOKENS) }, pruned ? { alsoFired: ["prune_oldest"] } : {});
    }
    case "prune_oldest":
      if ((facts.activeAccessTokens ?? 1) <= MAX_ACTIVE_ACCESS_TOKENS) return refuse("at_most_two_active");
      return done({ activeAccessTokens: MAX_ACTIVE_ACCESS_TOKENS });
    case "revoke_with_rotation":
      if (phase !== "active" || token.revoked) return refuse("token_revoked");
      if (!facts.rotationEnabled) return refuse("no_token_rotation");
      if (token.exchanged) return refuse("original_after_exchange");
      return done({ token: { ...token, revoked: true } });
    case "revoke_without_rotation":
      if (phase !== "active" || token.revoked) return refuse("token_revoked");
      if (facts.rotationEnabled) return refuse("app_has_token_rotation");
      return done({ phase: "needs_reinstall" });
    case "uninstall":
      if (phase === "uninstalled") return refuse("already_uninstalled");
      return done({ phase: "uninstalled", token: { ...token, revoked: true } });
    case "turn_on_rotation":
      if (facts.rotationEnabled) return refuse("already_on");
      return done({ rotationEnabled: true });
    case "reinstall":
      if (phase === "active") return refuse("installed");
      return done({ phase: "active", token: facts.rotationEnabled ? fresh() : { rotating: false, expiresAt: null, revoked: false }, activeAccessTokens: 1 });
  }
}

/**
 * What a dead answer (verdictForError) does, as the table says: `token_revoked` is row 6 taken elsewhere
 * (only that token died, which proves its app has rotation); `needs_reinstall` is the authorization ending
 * by a row the console cannot tell apart from where it stands (2, 7 or 8 taken elsewhere, or a refresh
 * token the platform refuses for good): the installation needs reinstalling. An uninstalled one stays so.
 */
export function applyVerdict(facts: LifecycleFacts, verdict: DeadTokenVerdict, nowMs: number): TransitionOutcome {
  if (verdict === "token_revoked") return applyTransition({ ...facts, rotationEnabled: true }, "revoke_with_rotation", nowMs);
  if (facts.phase === "uninstalled") return refuse("already_uninstalled");
  return { ok: true, facts: { ...facts, phase: "needs_reinstall" }, alsoFired: [] };
}

/** The problem of an installation whose stored secrets this server cannot open (lib/installations/unreadable.ts). */
export const UNREADABLE_SECRETS = "unreadable_secrets";
/** The problem of an installation made on an emulator that was since reset or replaced (upstream-instance.ts). */
export const UPSTREAM_REPLACED = "emulator_replaced";

/** Why an installation needs reinstalling, in words that fit what happened to it (its `problem` code). */
export function reinstallReason(problem: string | null | undefined, uninstalled: boolean): string {
  if (uninstalled) return "the app was uninstalled from the workspace, which revoked every token";
  switch (problem) {
    case "invalid_refresh_token":
    case "invalid_grant":
      return `the platform refused its refresh token (${problem})`;
    case "token_revoked":
      return "its authorization was revoked (token_revoked)";
    case "account_inactive":
      return "the platform says its account is inactive (account_inactive): the app was uninstalled or the workspace is gone";
    case "invalid_auth":
      return "the platform no longer knows its token (invalid_auth)";
    case "token_expired":
      return "its long-lived token no longer works (token_expired: it was exchanged elsewhere)";
    case UNREADABLE_SECRETS:
      return "this server cannot open its tokens, sealed with a key it does not have (GET /api/ready names it). Give the server that key again (its ENCRYPTION_KEYS entry, or the SESSION_PASSWORD it was derived from) to use them, or reinstall";
    case UPSTREAM_REPLACED:
      return "the emulator it was installed on was reset or replaced, and the emulator answering now never issued its tokens";
    default:
      return `the platform rejected its tokens${problem ? ` (${problem})` : ""}`;
  }
}
