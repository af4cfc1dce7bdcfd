import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as appExchangeRoute } from "@/app/api/app-config/apps/[appId]/exchange/route";
import { POST as scopesRoute } from "@/app/api/app-config/apps/[appId]/scopes/route";
import { GET as callAllRoute } from "@/app/api/call/[method]/all/route";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { POST as mentionRoute } from "@/app/api/emulator/mention/route";
import { GET as messagesRoute } from "@/app/api/emulator/messages/route";
import { DELETE as forgetRoute } from "@/app/api/installations/[id]/route";
import { GET as timelineRoute } from "@/app/api/installations/[id]/timeline/route";
import { POST as uninstallRoute } from "@/app/api/installations/[id]/uninstall/route";
import { POST as clockRoute } from "@/app/api/platform-clock/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as exchangeRoute } from "@/app/api/tokens/exchange/route";
import { POST as refreshRoute } from "@/app/api/tokens/refresh/route";
import { POST as revokeRoute } from "@/app/api/tokens/revoke/route";
import { POST as testRoute } from "@/app/api/tokens/test/route";
import { POST as webhookSendRoute } from "@/app/api/webhooks/send/route";
import { GET as webhooksRoute, POST as pasteWebhookRoute } from "@/app/api/webhooks/route";
import { POST as workspaceActRoute } from "@/app/api/workspace/act/[action]/route";
import { GET as workspaceRoute } from "@/app/api/workspace/route";
import { GET as installedPage } from "@/app/oauth/installed/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import { startTestConsole, TestBrowser, type RouteFn, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

/**
 * Issue 26, who sees and does what, against the emulator with two workspaces and sign-in on: a member sees
 * their workspace's installations and answers 404 for any other (every route that takes an installation
 * id), an admin (ADMIN_USERS) sees both, and only an admin or the member who installed may revoke,
 * uninstall, forget or exchange. An install by someone not signed in ends on a page of its own.
 */
let testConsole: TestConsole;
let one: Workspace;
let two: Workspace;
/** Members able to sign in, by their place in the workspace's member list. */
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
let admin: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI], workspaces: 2 });
  [one, two] = [...testConsole.emulator.emulator.state.workspaces.values()] as [Workspace, Workspace];
  // Read by the console's configuration on its first request, which has not come yet.
  admin = membersOf(two)[2]!;
  process.env.ADMIN_USERS = admin;
});
afterAll(() => {
  delete process.env.ADMIN_USERS;
  return testConsole.close();
});

/** A browser signed in as `userId` of `ws`, through the platform's sign-in page. */
async function signedIn(ws: Workspace, userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  authorize.searchParams.set("team", ws.team.id);
  const back = await returnToConsole(browser, await pickMemberAt(authorize, { userId }));
  expect(back.status).toBe(303);
  return browser;
}

/** The installation an install by this browser made, read from where the callback sent it. */
async function install(browser: TestBrowser, ws: Workspace): Promise<{ id: string; location: string }> {
  const done = await installIn(browser, `?team=${ws.team.id}`);
  expect(done.status, await done.clone().text()).toBe(303);
  const location = done.headers.get("location") ?? "";
  const id = new URL(location, testConsole.origin).searchParams.get("installed") ?? "";
  return { id, location };
}

async function sessionOf(browser: TestBrowser) {
  const response = await browser.send(sessionRoute, "/api/session");
  expect(response.status).toBe(200);
  return (await response.json()) as {
    installations: Array<{ id: string; timeline: Array<{ type: string; who?: { id: string } }> }>;
    access: { admin: boolean; manageable: string[] };
  };
}

let installerOne: TestBrowser;
let memberOne: TestBrowser;
let installerTwo: TestBrowser;
let adminBrowser: TestBrowser;
let idOne: string;
let idTwo: string;
let appId: string;

describe("who sees what, signed in with the platform", () => {
  beforeAll(async () => {
    installerOne = await signedIn(one, membersOf(one)[0]!);
    memberOne = await signedIn(one, membersOf(one)[1]!);
    installerTwo = await signedIn(two, membersOf(two)[0]!);
    adminBrowser = await signedIn(two, admin);
    // The emulator installs as the workspace's first member: the installer of each is the member signed in as such.
    idOne = (await install(installerOne, one)).id;
    idTwo = (await install(installerTwo, two)).id;
    expect(idOne).toMatch(new RegExp(`^${one.team.id}-`));
    expect(idTwo).toMatch(new RegExp(`^${two.team.id}-`));
    appId = idOne.split("-")[1]!;
  });

  it("shows each member their own workspace's installations only, and an admin both", async () => {
    expect((await sessionOf(installerOne)).installations.map((i) => i.id)).toEqual([idOne]);
    expect((await sessionOf(memberOne)).installations.map((i) => i.id)).toEqual([idOne]);
    expect((await sessionOf(installerTwo)).installations.map((i) => i.id)).toEqual([idTwo]);
    const asAdmin = await sessionOf(adminBrowser);
    expect(asAdmin.installations.map((i) => i.id).sort()).toEqual([idOne, idTwo].sort());
    expect(asAdmin.access).toMatchObject({ admin: true });
    expect(asAdmin.access.manageable.sort()).toEqual([idOne, idTwo].sort());
    // The webhooks page lists what each sees: their installation's webhook, never another team's.
    const hooks = (await (await memberOne.send(webhooksRoute, "/api/webhooks")).json()) as { webhooks: Array<{ installationId: string | null }> };
    expect(hooks.webhooks.map((w) => w.installationId)).toEqual([idOne]);
  });

  it("says on the session who may manage what: the installer, not another member", async () => {
    expect((await sessionOf(installerOne)).access).toEqual({ admin: false, signedIn: true, userId: membersOf(one)[0], manageable: [idOne] });
    expect((await sessionOf(memberOne)).access).toEqual({ admin: false, signedIn: true, userId: membersOf(one)[1], manageable: [] });
  });

  type Send = (browser: TestBrowser, id: string) => Promise<Response>;
  const ROUTES: Record<string, Send> = {
    "GET /api/call/{method}": (b, id) => b.send(callGet, `/api/call/auth.test?installation=${encodeURIComponent(id)}`, { params: { method: "auth.test" } }),
    "POST /api/call/{method}": (b, id) =>
      b.send(callPost, `/api/call/auth.test?installation=${encodeURIComponent(id)}`, { method: "POST", json: {}, params: { method: "auth.test" } }),
    "GET /api/call/{method}/all": (b, id) =>
      b.send(callAllRoute as RouteFn, `/api/call/users.list/all?installation=${encodeURIComponent(id)}`, { params: { method: "users.list" } }),
    "POST /api/tokens/test": (b, id) => b.send(testRoute, "/api/tokens/test", { method: "POST", json: { installation: id, token: "bot" } }),
    "POST /api/tokens/refresh": (b, id) => b.send(refreshRoute, "/api/tokens/refresh", { method: "POST", json: { installation: id, token: "bot" } }),
    "POST /api/tokens/revoke": (b, id) => b.send(revokeRoute, "/api/tokens/revoke", { method: "POST", json: { installation: id, token: "bot" } }),
    "POST /api/tokens/exchange": (b, id) =>
      b.send(exchangeRoute, "/api/tokens/exchange", { method: "POST", json: { installation: id, token: "bot", confirm: true } }),
    "POST /api/installations/{id}/uninstall": (b, id) =>
      b.send(uninstallRoute, `/api/installations/${encodeURIComponent(id)}/uninstall`, { method: "POST", params: { id } }),
    "DELETE /api/installations/{id}": (b, id) => b.send(forgetRoute, `/api/installations/${encodeURIComponent(id)}`, { method: "DELETE", params: { id } }),
    "GET /api/installations/{id}/timeline": (b, id) => b.send(timelineRoute, `/api/installations/${encodeURIComponent(id)}/timeline`, { params: { id } }),
    "POST /api/emulator/mention": (b, id) => b.send(mentionRoute, "/api/emulator/mention", { method: "POST", json: { installationId: id, text: "hello" } }),
    "POST /api/app-config/apps/{appId}/exchange": (b, id) =>
      b.send(appExchangeRoute, `/api/app-config/apps/${appId}/exchange`, {
        method: "POST",
        json: { installation: id, token: "bot", confirm: true },
        params: { appId },
      }),
  };

  for (const [route, send] of Object.entries(ROUTES)) {
    it(`${route} answers another team's installation, an unknown one and a malformed one alike: 404 unknown_installation`, async () => {
      for (const id of [idTwo, "T0NOPE-A0NOPE", "../not an id!"]) {
        const response = await send(memberOne, id);
        expect(response.status, id).toBe(404);
        expect(await response.json()).toMatchObject({ ok: false, error: "unknown_installation" });
      }
    });
  }

  it("POST /api/webhooks/send answers another team's installation webhook as unknown", async () => {
    const response = await memberOne.send(webhookSendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: `inst-${idTwo}`, text: "hi" } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ ok: false, error: "unknown_webhook" });
  });

  it("lets a member look, test and call, but not revoke, exchange, uninstall or forget what another member installed", async () => {
    expect((await ROUTES["POST /api/tokens/test"]!(memberOne, idOne)).status).toBe(200);
    expect((await ROUTES["GET /api/call/{method}"]!(memberOne, idOne)).status).toBe(200);
    expect((await ROUTES["GET /api/installations/{id}/timeline"]!(memberOne, idOne)).status).toBe(200);
    for (const route of ["POST /api/tokens/revoke", "POST /api/tokens/exchange", "POST /api/installations/{id}/uninstall", "DELETE /api/installations/{id}"]) {
      const response = await ROUTES[route]!(memberOne, idOne);
      expect(response.status, route).toBe(403);
      expect(await response.json()).toMatchObject({ ok: false, error: "not_allowed" });
    }
    // Nothing changed: the bot token still works for the installer.
    expect((await ROUTES["POST /api/tokens/test"]!(installerOne, idOne)).status).toBe(200);
    // The app's settings and the emulator's clock are not a member's either.
    const scopes = await memberOne.send(scopesRoute, `/api/app-config/apps/${appId}/scopes`, {
      method: "POST",
      json: { bot: ["chat:write"], user: [] },
      params: { appId },
    });
    expect(scopes.status).toBe(403);
    const clock = await memberOne.send(clockRoute, "/api/platform-clock", { method: "POST", json: { advance_s: 60 } });
    expect(clock.status).toBe(403);
    expect(await clock.json()).toMatchObject({ error: "not_allowed" });
  });

  it("keeps what Revoke, Uninstall and Exchange do a manager's through the explorer too, and a user token its holder's", async () => {
    for (const method of ["auth.revoke", "apps.uninstall", "oauth.v2.exchange"]) {
      const response = await memberOne.send(callPost, `/api/call/${method}?installation=${idOne}`, { method: "POST", json: {}, params: { method } });
      expect(response.status, method).toBe(403);
      expect(await response.json()).toMatchObject({ error: "not_allowed" });
    }
    // User tokens belong to people: a member who never installed with user scopes has none of their own to act with.
    const asUser = await memberOne.send(callGet, `/api/call/auth.test?installation=${idOne}&token=user`, { params: { method: "auth.test" } });
    expect(asUser.status).toBe(400);
    expect(await asUser.json()).toMatchObject({ error: "no_token", message: expect.stringContaining("You have no user token in this installation") });
    const walkAsUser = await memberOne.send(callAllRoute as RouteFn, `/api/call/users.list/all?installation=${idOne}&token=user`, {
      params: { method: "users.list" },
    });
    expect(walkAsUser.status).toBe(400);
    // The bot token is the installation's: a member calls with it; the installer calls as themselves.
    expect((await memberOne.send(callGet, `/api/call/auth.test?installation=${idOne}&token=bot`, { params: { method: "auth.test" } })).status).toBe(200);
    const installerAsUser = await installerOne.send(callGet, `/api/call/auth.test?installation=${idOne}&token=user`, { params: { method: "auth.test" } });
    expect(installerAsUser.status).toBe(200);
    expect(await installerAsUser.json()).toMatchObject({ ok: true, user_id: membersOf(one)[0] });
  });

  it("keeps an app's settings an admin's: not even the member who installed it changes what every workspace shares", async () => {
    const scopes = await installerOne.send(scopesRoute, `/api/app-config/apps/${appId}/scopes`, {
      method: "POST",
      json: { bot: ["chat:write"], user: [] },
      params: { appId },
    });
    expect(scopes.status).toBe(403);
    expect(await scopes.json()).toMatchObject({ error: "not_allowed" });
  });

  it("shows the emulator's channel messages only to those who see its workspace", async () => {
    const hooks = (await (await installerOne.send(webhooksRoute, "/api/webhooks")).json()) as { webhooks: Array<{ id: string; channelId: string | null }> };
    const own = hooks.webhooks.find((w) => w.id === `inst-${idOne}`)!;
    const sent = await installerOne.send(webhookSendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: own.id, text: "for workspace one" } });
    expect(sent.status).toBe(200);
    const read = async (b: TestBrowser) =>
      (await (await b.send(messagesRoute, `/api/emulator/messages?channel=${own.channelId}`)).json()) as { messages: Array<{ text: string }> };
    expect((await read(installerOne)).messages.map((m) => m.text)).toContain("for workspace one");
    expect((await read(adminBrowser)).messages.map((m) => m.text)).toContain("for workspace one");
    expect((await read(installerTwo)).messages).toEqual([]);
  });

  it("names who did each thing in the timeline: the installer for the install, the member for a test", async () => {
    const timeline = (await sessionOf(installerOne)).installations[0]!.timeline;
    // The first test of its bot token was the member's; the installer's came after it.
    const tested = timeline.filter((e) => e.type === "tested").at(-1);
    expect(tested?.who?.id).toBe(membersOf(one)[1]);
    expect(timeline.find((e) => e.type === "installed")?.who?.id).toBe(membersOf(one)[0]);
  });

  it("keeps a pasted webhook its paster's (and admins'): another member neither lists nor sends through it", async () => {
    const url = `${testConsole.origin}/emulator/services/${one.team.id}/B0PASTED/${"s".repeat(24)}`;
    const pasted = await memberOne.send(pasteWebhookRoute, "/api/webhooks", { method: "POST", json: { url, label: "Mine" } });
    expect(pasted.status).toBe(201);
    const { webhook } = (await pasted.json()) as { webhook: { id: string } };
    const listed = async (b: TestBrowser) =>
      ((await (await b.send(webhooksRoute, "/api/webhooks")).json()) as { webhooks: Array<{ id: string }> }).webhooks.map((w) => w.id);
    expect(await listed(memberOne)).toContain(webhook.id);
    expect(await listed(installerOne)).not.toContain(webhook.id);
    expect(await listed(adminBrowser)).toContain(webhook.id);
    const send = await installerOne.send(webhookSendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "hi" } });
    expect(send.status).toBe(404);
    expect(await send.json()).toMatchObject({ error: "unknown_webhook" });
  });

  it("keeps the Workspace page's routes to the admin: a member can neither look as another member nor act as one", async () => {
    const looked = await memberOne.send(workspaceRoute, "/api/workspace");
    expect(looked.status).toBe(403);
    const acted = await memberOne.send(workspaceActRoute, "/api/workspace/act/post", {
      method: "POST",
      json: { channel: "C0123ABCD", text: "as someone else" },
      params: { action: "post" },
    });
    expect(acted.status).toBe(403);
    expect((await adminBrowser.send(workspaceRoute, "/api/workspace")).status).toBe(200);
  });

  it("lets the admin revoke what a member of another workspace installed", async () => {
    const revoked = await ROUTES["POST /api/tokens/revoke"]!(adminBrowser, idOne);
    expect(revoked.status).toBe(200);
  });
});

describe("the install button for someone outside the team", () => {
  it("ends on a page of its own that says the app is installed in their workspace, and the team's members see the installation", async () => {
    const outsider = new TestBrowser(testConsole.origin);
    const { location } = await install(outsider, two);
    expect(location).toBe("/oauth/installed");
    const page = await outsider.send(installedPage, "/oauth/installed");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`is installed in ${two.team.name}`);
    expect(html).not.toMatch(/xox[a-z]-/);
    expect(html).not.toContain("/api/");
    // Shown again on a reload; another browser has nothing to see.
    expect((await outsider.send(installedPage, "/oauth/installed")).status).toBe(200);
    expect((await new TestBrowser(testConsole.origin).send(installedPage, "/oauth/installed")).status).toBe(404);
    // The same workspace and app: the installation is updated, never a second one.
    expect((await sessionOf(adminBrowser)).installations.filter((i) => i.id.startsWith(`${two.team.id}-`))).toHaveLength(1);
  });
});
