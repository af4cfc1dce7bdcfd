import { describe, expect, it } from "vitest";
import { OPERATOR, type Viewer } from "@/lib/viewer";
import { canSee } from "@/lib/installations/universal/rights";
import { installationFromGrant, toInstallationView, type InstallationRecord } from "@/lib/installations/record";
import { mergeWrite } from "@/lib/installations/merge-write";
import { fromStoreInstallation, toStoreInstallation } from "@/lib/installations/store-mapping";
import { chooseUserToken } from "@/lib/installations/user-tokens";
import { reshapeTokenGrant } from "@/lib/platform/oauth";

/**
 * User tokens belong to people (lib/installations/user-tokens.ts): the record-level rules, from the
 * platform's answers as the wire carries them. The same rules end to end: tests/unit/access/user-tokens.slow.test.ts.
 */

const member = (userId: string, overrides: Partial<Extract<Viewer, { kind: "member" }>> = {}): Viewer => ({
  kind: "member",
  userId,
  teamId: "T1",
  name: userId,
  admin: false,
  ...overrides,
});

/** oauth.v2.access as the platform answers an install by `userId` with bot and user scopes. */
function installAnswer(userId: string, n: number) {
  return reshapeTokenGrant({
    ok: true,
    app_id: "A1",
    team: { id: "T1", name: "Acme" },
    enterprise: null,
    is_enterprise_install: false,
    access_token: `xoxe.xoxb-1-bot${n}`,
    refresh_token: `xoxe-1-botrefresh${n}`,
    expires_in: 43200,
    token_type: "bot",
    scope: "chat:write",
    bot_user_id: "UBOT",
    authed_user: {
      id: userId,
      access_token: `xoxe.xoxp-1-user${n}`,
      refresh_token: `xoxe-1-userrefresh${n}`,
      expires_in: 43200,
      token_type: "user",
      scope: "users:read",
    },
  });
}

function installedBy(...people: string[]): InstallationRecord {
  let record: InstallationRecord | undefined;
  people.forEach((person, n) => (record = installationFromGrant(installAnswer(person, n), "console", 1_000 + n, record)));
  return record!;
}

describe("user tokens, one per installation and person", () => {
  it("keeps each installer's user token in the one installation; the bot token is the installation's, the newest", () => {
    const record = installedBy("UANA", "UBEN");
    expect(record.id).toBe("T1-A1");
    expect(Object.keys(record.userTokens ?? {}).sort()).toEqual(["UANA", "UBEN"]);
    expect(record.userTokens?.UANA?.value).toBe("xoxe.xoxp-1-user0");
    // It acts with the grant's own: the last installer's.
    expect(record).toMatchObject({ userHolder: "UBEN", user: { value: "xoxe.xoxp-1-user1" }, bot: { value: "xoxe.xoxb-1-bot1" } });
    expect(record).toMatchObject({ installedBy: "UANA", authedUserId: "UBEN" });
    // Installing again as Ana replaces her token only.
    const again = installationFromGrant(installAnswer("UANA", 2), "console", 2_000, record);
    expect(again.userTokens?.UANA?.value).toBe("xoxe.xoxp-1-user2");
    expect(again.userTokens?.UBEN?.value).toBe("xoxe.xoxp-1-user1");
  });

  it("lets each person act with their own, a member without one with none, the operator and an admin with the last installer's", () => {
    const record = installedBy("UANA", "UBEN");
    expect(chooseUserToken(record, { viewer: member("UANA") }).user?.value).toBe("xoxe.xoxp-1-user0");
    expect(chooseUserToken(record, { viewer: member("UBEN") }).user?.value).toBe("xoxe.xoxp-1-user1");
    const none = chooseUserToken(record, { viewer: member("UCAT") });
    expect(none.user).toBeUndefined();
    expect(none.userHolder).toBeUndefined();
    expect(chooseUserToken(record, { viewer: member("UADM", { admin: true }) }).userHolder).toBe("UBEN");
    expect(chooseUserToken(record, { viewer: OPERATOR }).userHolder).toBe("UBEN");
  });

  it("writes back every person's token, the acting one in its holder's place, and reads them back as they were", () => {
    const record = chooseUserToken(installedBy("UANA", "UBEN"), { viewer: member("UANA") });
    const refreshed = { ...record, user: { ...record.user!, value: "xoxe.xoxp-1-renewed" } };
    const stored = toStoreInstallation(refreshed);
    expect(stored.user).toBeUndefined();
    expect(stored.people?.UANA?.value).toBe("xoxe.xoxp-1-renewed");
    expect(stored.people?.UBEN?.value).toBe("xoxe.xoxp-1-user1");
    const back = fromStoreInstallation({ ...stored, version: 3 }, [], false, { viewer: member("UANA") });
    expect(back).toMatchObject({ userHolder: "UANA", user: { value: "xoxe.xoxp-1-renewed" } });
    // The view lists everyone's, masked.
    const view = toInstallationView(back);
    expect(view.userTokens.map((t) => t.userId).sort()).toEqual(["UANA", "UBEN"]);
    expect(JSON.stringify(view)).not.toContain("xoxe.xoxp-1-renewed");
  });

  it("counts a user token stored before tokens were per person as the last installer's", () => {
    const legacy = fromStoreInstallation({
      id: "T1-A1",
      appKey: "console",
      team: { id: "T1", name: "Acme" },
      authedUserId: "UANA",
      user: { value: "xoxp-1-old", scopes: [], issuedAt: 1 },
      state: "active",
      installedAt: 1,
      updatedAt: 1,
      version: 1,
    });
    expect(legacy).toMatchObject({ userHolder: "", user: { value: "xoxp-1-old" } });
    expect(chooseUserToken(legacy, { viewer: member("UANA") }).user?.value).toBe("xoxp-1-old");
    expect(chooseUserToken(legacy, { viewer: member("UBEN") }).user).toBeUndefined();
    expect(toStoreInstallation(legacy).user?.value).toBe("xoxp-1-old");
  });

  it("names a token stored before tokens were per person after its installer before another person installs", () => {
    const legacy = fromStoreInstallation({
      id: "T1-A1",
      appKey: "console",
      appId: "A1",
      team: { id: "T1", name: "Acme" },
      authedUserId: "UANA",
      user: { value: "xoxp-1-old", scopes: [], issuedAt: 1 },
      state: "active",
      installedAt: 1,
      updatedAt: 1,
      version: 1,
    });
    // Ben reinstalls with bot scopes only: he becomes the last installer, and must not inherit Ana's token.
    const grant = reshapeTokenGrant({
      ok: true,
      app_id: "A1",
      team: { id: "T1", name: "Acme" },
      access_token: "xoxb-1-bot5",
      token_type: "bot",
      scope: "chat:write",
      authed_user: { id: "UBEN" },
    });
    const after = installationFromGrant(grant, "console", 2_000, legacy);
    expect(after.authedUserId).toBe("UBEN");
    expect(Object.keys(after.userTokens ?? {})).toEqual(["UANA"]);
    expect(chooseUserToken(after, { viewer: member("UBEN") }).user).toBeUndefined();
    expect(chooseUserToken(after, { viewer: member("UANA") }).user?.value).toBe("xoxp-1-old");
  });

  it("merges a write over another request's: this request's person's token merged, the others' as stored", () => {
    const read = chooseUserToken(installedBy("UANA", "UBEN"), { viewer: member("UANA") });
    const mine = { ...read, user: { ...read.user!, value: "xoxe.xoxp-1-mine", issuedAt: 5_000 }, updatedAt: 5_000 };
    const theirs = chooseUserToken(
      { ...read, userTokens: { ...read.userTokens, UBEN: { ...read.userTokens!.UBEN!, value: "xoxe.xoxp-1-theirs", issuedAt: 4_000 } } },
      { holder: "UANA" },
    );
    const merged = toStoreInstallation(mergeWrite(mine, theirs));
    expect(merged.people?.UANA?.value).toBe("xoxe.xoxp-1-mine");
    expect(merged.people?.UBEN?.value).toBe("xoxe.xoxp-1-theirs");
  });
});

describe("a write racing the end of the authorization", () => {
  it("keeps an installation another write marked as needing reinstall, unless this write brings a newer grant", () => {
    const read = chooseUserToken(installedBy("UANA", "UBEN"), { viewer: member("UANA") });
    const ended = { ...read, state: "needs_reinstall" as const, problem: "invalid_refresh_token", updatedAt: 10_000 };
    // One person's token refused a moment later, by a request that read the installation while it was active.
    const mine = { ...read, user: { ...read.user!, revoked: true }, updatedAt: 11_000 };
    expect(mergeWrite(mine, ended)).toMatchObject({ state: "needs_reinstall", problem: "invalid_refresh_token" });
    // A reinstall issues tokens after it ended: the installation lives again.
    const regranted = installationFromGrant(installAnswer("UANA", 9), "console", 12_000, read);
    expect(mergeWrite(regranted, ended).state).toBe("active");
  });
});

describe("an organisation-wide install", () => {
  const answer = reshapeTokenGrant({
    ok: true,
    app_id: "A1",
    team: null,
    enterprise: { id: "E1", name: "Acme Group" },
    is_enterprise_install: true,
    access_token: "xoxb-1-org",
    token_type: "bot",
    scope: "chat:write",
    bot_user_id: "UBOT",
    authed_user: { id: "UANA" },
  });

  it("is recorded under the organisation, which the platform names in place of a team", () => {
    const record = installationFromGrant(answer, "console", 1);
    expect(record).toMatchObject({ id: "E1-A1", team: { id: "E1", name: "Acme Group" }, enterprise: { id: "E1" }, isEnterpriseInstall: true });
    expect(toInstallationView(record).isEnterpriseInstall).toBe(true);
    expect(toStoreInstallation(record).isEnterpriseInstall).toBe(true);
  });

  it("is seen by the organisation's members from any of its workspaces, and by nobody else's", () => {
    const record = installationFromGrant(answer, "console", 1);
    expect(canSee(member("UBEN", { teamId: "T7", enterpriseId: "E1" }), record)).toBe(true);
    expect(canSee(member("UBEN", { teamId: "T7", enterpriseId: "E2" }), record)).toBe(false);
    expect(canSee(member("UBEN", { teamId: "E1" }), record)).toBe(false);
  });
});
