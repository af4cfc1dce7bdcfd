import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { advanceEmulatorClock, pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";
import { findInstallation } from "@/lib/installations/repository";

/**
 * Issue 26: user tokens belong to people. Against the emulator with sign-in on, three members of one
 * workspace install the app with user scopes; one installation, each with a user token of their own that
 * acts as them, which they refresh and revoke as theirs without touching the others'; a member who never
 * installed has none to act with; an admin acts with the last installer's; uninstalling ends them all.
 */
let testConsole: TestConsole;
let ws: Workspace;
let people: string[];
let admin: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  ws = testConsole.emulator.emulator.state.workspace;
  people = Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
  admin = people[4]!;
  process.env.ADMIN_USERS = admin;
});
afterAll(() => {
  delete process.env.ADMIN_USERS;
  return testConsole.close();
});

async function signedIn(userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  const back = await returnToConsole(browser, await pickMemberAt(authorize, { userId }));
  expect(back.status).toBe(303);
  return browser;
}

/** Installs as the signed-in member (the consent page's "Installing as"); answers the installation's id. */
async function installAs(browser: TestBrowser, userId: string): Promise<string> {
  const done = await installIn(browser, "", { userId });
  expect(done.status, await done.clone().text()).toBe(303);
  return new URL(done.headers.get("location") ?? "", testConsole.origin).searchParams.get("installed") ?? "";
}

async function whoAmI(browser: TestBrowser, id: string): Promise<Response> {
  return browser.send(callGet, `/api/call/auth.test?installation=${id}&token=user`, { params: { method: "auth.test" } });
}

interface SessionView {
  installations: Array<{
    id: string;
    user: { masked: string } | null;
    userHolder: string | null;
    userTokens: Array<{ userId: string | null; token: { masked: string; revoked: boolean } }>;
    timeline: Array<{ type: string; token?: string; who?: { id: string; name?: string } }>;
  }>;
}

async function sessionOf(browser: TestBrowser): Promise<SessionView["installations"][number]> {
  const response = await browser.send(sessionRoute, "/api/session");
  expect(response.status).toBe(200);
  const body = (await response.json()) as SessionView;
  expect(body.installations).toHaveLength(1);
  return body.installations[0]!;
}

describe("user tokens belong to people", () => {
  let first: TestBrowser;
  let second: TestBrowser;
  let third: TestBrowser;
  let bystander: TestBrowser;
  let adminBrowser: TestBrowser;
  let id: string;

  beforeAll(async () => {
    [first, second, third, bystander, adminBrowser] = (await Promise.all([people[0], people[1], people[2], people[3], admin].map((p) => signedIn(p!)))) as [
      TestBrowser,
      TestBrowser,
      TestBrowser,
      TestBrowser,
      TestBrowser,
    ];
    id = await installAs(first, people[0]!);
    // Installing the same app into the same workspace again updates that installation, never makes a second.
    expect(await installAs(second, people[1]!)).toBe(id);
    expect(await installAs(third, people[2]!)).toBe(id);
  });

  it("keeps one installation with a user token for each member who installed, each acting as them", async () => {
    for (const [browser, person] of [
      [first, people[0]],
      [second, people[1]],
      [third, people[2]],
    ] as const) {
      const answer = await whoAmI(browser, id);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ ok: true, user_id: person });
      const view = await sessionOf(browser);
      expect(view.userHolder).toBe(person);
    }
    const view = await sessionOf(bystander);
    expect(view.userTokens.map((t) => t.userId).sort()).toEqual(people.slice(0, 3).sort());
    // Each install's entry names its installer, by id and by the name they signed in with.
    const installs = view.timeline.filter((e) => e.type === "installed" || e.type === "reinstalled");
    expect(installs.map((e) => e.who?.id)).toEqual([people[2], people[1], people[0]]);
    for (const entry of installs) expect(entry.who?.name).toBeTruthy();
    // Masked, never the token: each differs from the others.
    expect(new Set(view.userTokens.map((t) => t.token.masked)).size).toBe(3);
    expect(JSON.stringify(view)).not.toMatch(/xox[pe]\.?[-\w]{20,}/);
  });

  it("gives a member who never installed no user token to act with, and an admin the last installer's", async () => {
    const answer = await whoAmI(bystander, id);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: "no_token", message: expect.stringContaining("You have no user token") });
    expect((await sessionOf(bystander)).user).toBeNull();
    expect(await (await whoAmI(adminBrowser, id)).json()).toMatchObject({ ok: true, user_id: people[2] });
  });

  it("refreshes a member's own user token, leaving the others' as they were", async () => {
    const before = await sessionOf(third);
    const refreshed = await first.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "user" } });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const after = await sessionOf(third);
    const token = (view: typeof before, person: string) => view.userTokens.find((t) => t.userId === person)!.token.masked;
    expect(token(after, people[0]!)).not.toBe(token(before, people[0]!));
    expect(token(after, people[1]!)).toBe(token(before, people[1]!));
    expect(token(after, people[2]!)).toBe(token(before, people[2]!));
    // The refreshed token still acts as its member, and the entry says who refreshed it.
    expect(await (await whoAmI(first, id)).json()).toMatchObject({ ok: true, user_id: people[0] });
    expect(after.timeline.find((e) => e.type === "refreshed" && e.token === "user")?.who?.id).toBe(people[0]);
  });

  it("keeps every person's token when someone installs from a browser signed in as another", async () => {
    const before = await sessionOf(bystander);
    // The first member's browser, and the consent page's "Installing as" the fourth.
    expect(await installAs(first, people[3]!)).toBe(id);
    const after = await sessionOf(bystander);
    expect(after.userTokens.map((t) => t.userId).sort()).toEqual(people.slice(0, 4).sort());
    for (const person of people.slice(0, 3)) {
      expect(after.userTokens.find((t) => t.userId === person)?.token.masked).toBe(before.userTokens.find((t) => t.userId === person)?.token.masked);
    }
    expect(await (await whoAmI(first, id)).json()).toMatchObject({ ok: true, user_id: people[0] });
    expect(await (await whoAmI(bystander, id)).json()).toMatchObject({ ok: true, user_id: people[3] });
  });

  it("lets a member revoke their own user token (not the installation's bot token), and the others keep theirs", async () => {
    // people[1] neither installed first nor last: not a manager of the installation.
    const bot = await second.send(revokeRoute, "/api/tokens/revoke", { method: "POST", json: { installation: id, token: "bot" } });
    expect(bot.status).toBe(403);
    const own = await second.send(revokeRoute, "/api/tokens/revoke", { method: "POST", json: { installation: id, token: "user" } });
    expect(own.status, await own.clone().text()).toBe(200);
    expect((await whoAmI(second, id)).status).toBe(200);
    expect(await (await whoAmI(second, id)).json()).toMatchObject({ ok: false, error: "token_revoked" });
    expect(await (await whoAmI(first, id)).json()).toMatchObject({ ok: true, user_id: people[0] });
    expect(await (await whoAmI(third, id)).json()).toMatchObject({ ok: true, user_id: people[2] });
    const view = await sessionOf(bystander);
    expect(view.userTokens.find((t) => t.userId === people[1])?.token.revoked).toBe(true);
  });

  it("ends every member's user token with an uninstall", async () => {
    const done = await first.send(uninstallRoute, `/api/installations/${id}/uninstall`, { method: "POST", params: { id } });
    expect(done.status, await done.clone().text()).toBe(200);
    const view = await sessionOf(third);
    expect(view.userTokens).toEqual([]);
    expect(view.user).toBeNull();
  });
});

describe("one person's user token refused for good", () => {
  it("ends that person's token only: the installation, its bot token and the others' tokens live on", async () => {
    const [first, second] = await Promise.all([signedIn(people[0]!), signedIn(people[1]!)]);
    const id = await installAs(first, people[0]!);
    expect(await installAs(second, people[1]!)).toBe(id);
    // The platform stops honouring the second member's refresh token (their account's authorization ended).
    const stored = (await findInstallation(id, { fresh: true }))!;
    const refresh = stored.userTokens![people[1]!]!.refreshToken!;
    testConsole.emulator.emulator.state.tokens.get(refresh)!.state = "revoked";
    // 12 hours on: every token expired, each refreshed at its next use.
    await advanceEmulatorClock(testConsole.origin, 43_200 + 60);
    const refused = await whoAmI(second, id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: "needs_reinstall", message: expect.stringContaining("your user token") });
    expect(await (await whoAmI(first, id)).json()).toMatchObject({ ok: true, user_id: people[0] });
    const bot = await first.send(callGet, `/api/call/auth.test?installation=${id}&token=bot`, { params: { method: "auth.test" } });
    expect(await bot.json()).toMatchObject({ ok: true });
    const view = await sessionOf(first);
    // Their token is gone (nothing asks with the refused refresh token again); the timeline says why.
    expect(view.userTokens.map((t) => t.userId)).toEqual([people[0]]);
    expect(view.timeline.find((e) => e.type === "refresh_failed")).toMatchObject({ token: "user", who: { id: people[1] } });
    const again = await whoAmI(second, id);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "no_token" });
    const state = ((await (await first.send(sessionRoute, "/api/session")).json()) as { installations: Array<{ state: string }> }).installations[0]!.state;
    expect(state).toBe("active");
  });
});
