import { describe, expect, it } from "vitest";
import { isConsoleError } from "@/lib/http/app-error";
import { withVerdict } from "@/lib/installations/dead-token";
import { lifecycleTransition, tokenStateAt, type TransitionId } from "@/lib/installations/universal/lifecycle";
import type { InstallationRecord, StoredToken } from "@/lib/installations/record";
import type { TimelineEntry } from "@/lib/installations/universal/timeline";
import { factsOfStored, takeTransition, takeVerdict, type RecordTransition } from "@/lib/installations/transitions";
import { installationPhase } from "@/lib/installations/universal/view";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import type { RotationRuntime } from "@/lib/installations/rotation/runtime";

/**
 * What the actions do to an installation record, taken through the lifecycle model (lifecycle.ts): the
 * state each transition leaves the record in is the one the spec's table, as the installations page
 * draws it, names. Token values here are plain labels, never token-shaped.
 */

const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);
const HOUR = 3600_000;

const rotating = (label: string): StoredToken => ({
  value: `${label}-access`,
  refreshToken: `${label}-refresh`,
  expiresAt: NOW + 12 * HOUR,
  scopes: ["chat:write"],
});
const longLived = (label: string): StoredToken => ({ value: `${label}-access`, scopes: ["chat:write"] });

function record(bot: StoredToken | undefined, user?: StoredToken): InstallationRecord {
  return {
    id: "T1-A1",
    appKey: "console",
    appId: "A1",
    team: { id: "T1", name: "Team One" },
    ...(bot ? { bot } : {}),
    ...(user ? { user } : {}),
    incomingWebhook: { url: "https://hooks.example.test/path", channel: "#general", channelId: "C1" },
    state: "active",
    timeline: [{ at: NOW - HOUR, type: "installed", tokens: [], by: "test" }],
    installedAt: NOW - 2 * HOUR,
    updatedAt: NOW - 2 * HOUR,
  };
}

function taken(installation: InstallationRecord, transition: RecordTransition, rotationEnabled?: boolean): InstallationRecord {
  const outcome = takeTransition(installation, "bot", transition, NOW, rotationEnabled);
  if (!outcome.ok) throw new Error(`${transition.id} refused: ${outcome.refusal}`);
  return outcome.installation;
}

/** The state the record's bot token is in now, as the model reads it. */
function stateOf(installation: InstallationRecord, before: StoredToken): string {
  const phase = installationPhase({ state: installation.state, uninstalledAt: installation.uninstalledAt ?? null });
  return tokenStateAt(factsOfStored(installation.bot ?? before), phase, NOW);
}

describe("the actions' transitions on a record land where the table says", () => {
  const cases: { id: TransitionId; from: InstallationRecord; transition: RecordTransition; rotationEnabled?: boolean }[] = [
    { id: "refresh", from: record(rotating("bot")), transition: { id: "refresh", issued: rotating("bot2") } },
    { id: "revoke_with_rotation", from: record(rotating("bot")), transition: { id: "revoke_with_rotation" } },
    { id: "revoke_without_rotation", from: record(longLived("bot")), transition: { id: "revoke_without_rotation", problem: "token_revoked" } },
    { id: "uninstall", from: record(rotating("bot"), rotating("user")), transition: { id: "uninstall" } },
  ];
  for (const { id, from, transition, rotationEnabled } of cases) {
    it(`${id} leaves the token ${lifecycleTransition(id).to}`, () => {
      expect(stateOf(taken(from, transition, rotationEnabled), from.bot!)).toBe(lifecycleTransition(id).to);
    });
  }
});

describe("what each transition writes", () => {
  it("a refresh (row 4) replaces only that token, the platform's new one", () => {
    const before = record(rotating("bot"), rotating("user"));
    const after = taken(before, { id: "refresh", issued: rotating("bot2") });
    expect(after.bot).toEqual(rotating("bot2"));
    expect(after.user).toEqual(before.user);
    expect(after).toMatchObject({ state: "active", updatedAt: NOW });
  });

  it("a revoke with rotation (row 6) kills that token alone; the installation and its webhook stay", () => {
    const after = taken(record(rotating("bot"), rotating("user")), { id: "revoke_with_rotation" });
    expect(after.bot).toMatchObject({ value: "bot-access", revoked: true });
    expect(after.user?.revoked).toBeUndefined();
    expect(after).toMatchObject({ state: "active", incomingWebhook: { channelId: "C1" } });
  });

  it("a revoke without rotation (row 7) takes the authorization: needs reinstall, with why", () => {
    const after = taken(record(longLived("bot")), { id: "revoke_without_rotation", problem: "token_revoked" });
    expect(after).toMatchObject({ state: "needs_reinstall", problem: "token_revoked", updatedAt: NOW });
  });

  it("an uninstall (row 8) keeps the record for its timeline, without a token or the webhook", () => {
    const before = record(rotating("bot"), longLived("user"));
    const after = taken(before, { id: "uninstall" });
    expect(after).not.toHaveProperty("bot");
    expect(after).not.toHaveProperty("user");
    expect(after).not.toHaveProperty("incomingWebhook");
    expect(after).toMatchObject({ state: "needs_reinstall", problem: "uninstalled", uninstalledAt: NOW, timeline: before.timeline, team: before.team });
  });

  it("refuses what the table refuses: refreshing a long-lived token, a dead installation's token, revoking one already revoked", () => {
    expect(takeTransition(record(longLived("bot")), "bot", { id: "refresh", issued: rotating("x") }, NOW)).toEqual({ ok: false, refusal: "not_rotating" });
    const dead: InstallationRecord = { ...record(rotating("bot")), state: "needs_reinstall", problem: "invalid_refresh_token" };
    expect(takeTransition(dead, "bot", { id: "refresh", issued: rotating("x") }, NOW)).toEqual({ ok: false, refusal: "invalid_refresh_token" });
    const revoked = record({ ...rotating("bot"), revoked: true });
    expect(takeTransition(revoked, "bot", { id: "revoke_with_rotation" }, NOW)).toEqual({ ok: false, refusal: "token_revoked" });
  });
});

describe("what a dead answer does to a record", () => {
  const entry: TimelineEntry = { at: NOW, type: "tested", token: "bot", masked: "bot-…", ok: false, error: "token_revoked", by: "test" };

  it("token_revoked kills only that token, even a long-lived one: a token dying alone proves the app has rotation (row 6)", () => {
    const outcome = takeVerdict(record(longLived("bot"), longLived("user")), "bot", "token_revoked", "token_revoked", NOW);
    expect(outcome.ok && outcome.installation).toMatchObject({ state: "active", bot: { revoked: true } });
  });

  it("needs_reinstall ends the authorization with the platform's code as the reason, its tokens kept", () => {
    const outcome = takeVerdict(record(rotating("bot")), "bot", "needs_reinstall", "account_inactive", NOW);
    expect(outcome.ok && outcome.installation).toMatchObject({ state: "needs_reinstall", problem: "account_inactive", bot: { value: "bot-access" } });
  });

  it("a token revoked alone while none of its installation's tokens still works or renews: only a reinstall helps", () => {
    const after = withVerdict(record(longLived("bot"), { ...longLived("user"), revoked: true }), "bot", "token_revoked", "token_revoked", entry, NOW);
    expect(after).toMatchObject({ state: "needs_reinstall", problem: "token_revoked", bot: { revoked: true } });
    expect(after.timeline?.[0]).toEqual(entry);
  });

  it("a rotating sibling that can still renew keeps the installation", () => {
    const after = withVerdict(record(longLived("bot"), { ...rotating("user"), revoked: true }), "bot", "token_revoked", "token_revoked", entry, NOW);
    expect(after).toMatchObject({ state: "active", bot: { revoked: true } });
  });
});

describe("a refresh the model refuses", () => {
  it("is refused before its refresh token is spent: an installation that needs reinstalling never reaches the platform", async () => {
    const runtime: RotationRuntime = {
      // Nothing listens here: had the refresh been sent, it would fail as unreachable, not as needs_reinstall.
      baseUrl: "http://127.0.0.1:9",
      credentialsFor: () => ({ clientId: "client", clientSecret: "secret" }),
      // Nor is there a store: the model refuses before the refresh lock is even asked for.
      store: () => Promise.reject(new Error("the store was asked for")),
      now: () => NOW,
      refreshWindowS: 300,
      refreshGraceS: 60,
      timeoutMs: 500,
    };
    const dead: InstallationRecord = { ...record(rotating("bot")), state: "needs_reinstall", problem: "token_revoked" };
    const error = await refreshInstallationToken(dead, "bot", runtime).catch((e: unknown) => e);
    expect(isConsoleError(error, "needs_reinstall")).toBe(true);
  });
});
