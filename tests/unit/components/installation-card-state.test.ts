import { describe, expect, it } from "vitest";
import type { ActionOutcome } from "@/components/installations/action-outcome";
import { actionOfDialog, cardReducer, INITIAL_CARD_STATE, unrecordedFailure, UNSAVED_KEPT, type CardState } from "@/components/installations/card-state";
import { heldTokens, holdsLongLived, type Viewing } from "@/components/installations/held-tokens";
import { outcomeOf } from "@/components/installations/token-outcome";
import type { InstallationView, TokenView } from "@/lib/installations/universal/view";

const NOW = Date.UTC(2026, 0, 1, 9, 0, 0);
const HOUR = 3_600_000;

const rotating = (patch: Partial<TokenView> = {}): TokenView => ({
  masked: "xoxe.xoxb-…ab12",
  maskedRefreshToken: "xoxe-…cd34",
  expiresAt: NOW + 12 * HOUR,
  rotating: true,
  revoked: false,
  scopes: ["users:read"],
  ...patch,
});
const longLived = (patch: Partial<TokenView> = {}): TokenView => ({
  masked: "xoxb-…ef56",
  expiresAt: null,
  rotating: false,
  revoked: false,
  scopes: ["users:read"],
  ...patch,
});

function installation(patch: Partial<InstallationView> = {}): InstallationView {
  return {
    id: "T1-A1",
    name: "Switchboard Rotation in Emulated Workspace",
    app: { key: "console", id: "A1", name: "Switchboard Rotation" },
    team: { id: "T1", name: "Emulated Workspace" },
    enterprise: null,
    isEnterpriseInstall: false,
    botUserId: "UBOT",
    authedUserId: "UALICE",
    installedBy: "UALICE",
    state: "active",
    problem: null,
    bot: rotating(),
    user: rotating({ masked: "xoxe.xoxp-…gh78" }),
    userHolder: "UALICE",
    userTokens: [],
    incomingWebhook: null,
    uninstalledAt: null,
    timeline: [],
    installedAt: NOW - HOUR,
    updatedAt: NOW - HOUR,
    ...patch,
  };
}

const outcome = (action: ActionOutcome["action"], result = "ok"): ActionOutcome => ({ action, tone: "ok", result, detail: "", at: NOW });
const admin: Viewing = { phase: "active", now: NOW, rotation: true, canManage: true, viewerId: "UADMIN" };
const buttons = (held: ReturnType<typeof heldTokens>) => Object.fromEntries(held.map((h) => [h.kind, h.diagram.transitions.map((t) => t.id)]));

describe("an installation card's state", () => {
  it("clears a token's last result when an action on it starts, and keeps the other token's", () => {
    let state: CardState = cardReducer(INITIAL_CARD_STATE, { type: "answered", token: "bot", outcome: outcome("Test") });
    state = cardReducer(state, { type: "answered", token: "user", outcome: outcome("Refresh") });
    state = cardReducer(state, { type: "started", token: "bot" });
    expect(state.outcomes.bot).toBeUndefined();
    expect(state.outcomes.user).toEqual(outcome("Refresh"));
    state = cardReducer(state, { type: "answered", token: "bot", outcome: outcome("Revoke", "token_revoked") });
    expect(state.outcomes.bot?.result).toBe("token_revoked");
  });

  it("shows failures the server never recorded newest first, the last five only", () => {
    let state = INITIAL_CARD_STATE;
    for (let i = 1; i <= 7; i++)
      state = cardReducer(state, { type: "failed_unrecorded", entry: unrecordedFailure("refresh", "bot token", `attempt ${i}`, NOW + i) });
    expect(UNSAVED_KEPT).toBe(5);
    expect(state.unsaved.map((e) => e.detail)).toEqual(["attempt 7", "attempt 6", "attempt 5", "attempt 4", "attempt 3"]);
    expect(state.unsaved[0]).toEqual({ at: NOW + 7, title: "Refresh bot token: failed", detail: "attempt 7" });
  });

  it("opens one dialog at a time, and closing it leaves the results as they were", () => {
    let state = cardReducer(INITIAL_CARD_STATE, { type: "answered", token: "bot", outcome: outcome("Test") });
    state = cardReducer(state, { type: "opened", dialog: { kind: "uninstall" } });
    state = cardReducer(state, { type: "opened", dialog: { kind: "exchange", token: "user" } });
    expect(state.dialog).toEqual({ kind: "exchange", token: "user" });
    state = cardReducer(state, { type: "closed" });
    expect(state.dialog).toBeNull();
    expect(state.outcomes.bot).toEqual(outcome("Test"));
  });

  it("sends, once a dialog is confirmed, the action it asked about", () => {
    expect(actionOfDialog({ kind: "revoke_token", token: "user" }, "T1-A1")).toEqual({
      action: { kind: "revoke", arg: { installation: "T1-A1", token: "user" } },
      what: "user token",
    });
    // The same auth.revoke: without rotation the platform takes the whole installation with it.
    expect(actionOfDialog({ kind: "revoke_installation", token: "bot" }, "T1-A1").action).toEqual({
      kind: "revoke",
      arg: { installation: "T1-A1", token: "bot" },
    });
    expect(actionOfDialog({ kind: "exchange", token: "bot" }, "T1-A1").action).toEqual({
      kind: "exchange",
      arg: { installation: "T1-A1", token: "bot", confirm: true },
    });
    expect(actionOfDialog({ kind: "uninstall" }, "T1-A1")).toEqual({ action: { kind: "uninstall", arg: { installation: "T1-A1" } }, what: "the installation" });
    expect(actionOfDialog({ kind: "forget" }, "T1-A1")).toEqual({ action: { kind: "forget", arg: { installation: "T1-A1" } }, what: "the installation" });
  });
});

describe("the tokens a card shows and their buttons", () => {
  it("gives an admin refresh and revoke on rotating tokens, and names who holds each", () => {
    const held = heldTokens(installation(), admin);
    expect(buttons(held)).toEqual({ bot: ["refresh", "revoke_with_rotation"], user: ["refresh", "revoke_with_rotation"] });
    expect(held.map((h) => [h.kind, h.owner, h.diagram.state, h.diagram.holdsRefresh])).toEqual([
      ["bot", "UBOT", "expiring", true],
      ["user", "UALICE", "expiring", true],
    ]);
  });

  it("leaves a member who did not install only Refresh, except the revoke of their own rotating user token", () => {
    const member = { ...admin, canManage: false };
    expect(buttons(heldTokens(installation(), { ...member, viewerId: "UBOB" }))).toEqual({ bot: ["refresh"], user: ["refresh"] });
    expect(buttons(heldTokens(installation({ userHolder: "UBOB" }), { ...member, viewerId: "UBOB" }))).toEqual({
      bot: ["refresh"],
      user: ["refresh", "revoke_with_rotation"],
    });
  });

  it("waits for the app's rotation setting before offering a long-lived token's buttons", () => {
    const legacy = installation({ bot: longLived(), user: null });
    expect(holdsLongLived(legacy, "active")).toBe(true);
    expect(holdsLongLived(installation(), "active")).toBe(false);
    expect(buttons(heldTokens(legacy, { ...admin, rotation: "loading" }))).toEqual({ bot: [] });
    expect(buttons(heldTokens(legacy, { ...admin, rotation: false }))).toEqual({ bot: ["turn_on_rotation", "revoke_without_rotation"] });
    expect(buttons(heldTokens(legacy, { ...admin, rotation: true }))).toEqual({ bot: ["exchange", "revoke_with_rotation"] });
  });

  it("shows no token an installation does not hold", () => {
    expect(heldTokens(installation({ bot: null, user: null }), admin)).toEqual([]);
  });
});

describe("the result beside a token's buttons", () => {
  it("says who the token is after a Test, and that it was refreshed first", () => {
    const identity = { team: "Emulated Workspace", teamId: "T1", user: "bot", userId: "UBOT", url: "https://emulated.example/" };
    expect(outcomeOf("test", "bot", { ok: true, refreshed: true, identity }, null, NOW)).toEqual({
      action: "Test",
      tone: "ok",
      result: "ok",
      detail: "The token was refreshed first (it was about to expire).",
      identity,
      at: NOW,
    });
  });

  it("names the platform's error, or the console's code, and never the generic http_error", () => {
    expect(outcomeOf("revoke", "bot", { ok: false, platform: { ok: false, error: "invalid_auth" } }, null, NOW)).toMatchObject({
      action: "Revoke",
      tone: "error",
      result: "invalid_auth",
    });
    const refused = Object.assign(new Error("Exchange needs rotation."), { code: "rotation_disabled" });
    expect(outcomeOf("exchange", "bot", null, refused, NOW)).toMatchObject({ tone: "error", result: "rotation_disabled", detail: "Exchange needs rotation." });
    const http = Object.assign(new Error("The console answered 502."), { code: "http_error" });
    expect(outcomeOf("refresh", "user", null, http, NOW)).toMatchObject({ action: "Refresh", result: "failed" });
  });
});
