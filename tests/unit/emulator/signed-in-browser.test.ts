/**
 * Issue 36, item 3: the emulator remembers who signed in through its "Sign in with" page in this browser, as
 * the platform keeps a person signed in, and its consent page opens as them: their workspace, and them as
 * who allows. A browser that signed in nowhere gets the first workspace and its primary owner, as before.
 */
import { describe, expect, it } from "vitest";
import { createEmulator, defaultAppCredentials } from "@/lib/emulator";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { installingUserId, memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";

const SEED = "signed-in-browser";
const BASE = "http://localhost:3000/emulator";
const REDIRECT = "http://localhost:3000/oauth/callback";
const SIGN_IN_REDIRECT = "http://localhost:3000/auth/callback";

function setUp() {
  const emulator = createEmulator({ seed: SEED, users: 30, workspaces: 2, basePath: "/emulator", redirectUrls: [SIGN_IN_REDIRECT] });
  const [one, two] = [...emulator.state.workspaces.values()] as [Workspace, Workspace];
  const app = defaultAppCredentials(SEED, "rotation");
  const member = Array.from({ length: 10 }, (_, i) => memberIdAt(two, i)).filter((id) => canSignIn(two, id))[3]!;
  return { emulator, one, two, app, member };
}

/** The consent page of an install link, as the browser holding `cookie` sees it: the workspace it opens on and who is preselected. */
async function consentPage(s: ReturnType<typeof setUp>, cookie: string | undefined, team?: string) {
  const query = new URLSearchParams({ client_id: s.app.clientId, scope: "chat:write", redirect_uri: REDIRECT, state: "s", ...(team ? { team } : {}) });
  const response = await s.emulator.fetch(new Request(`${BASE}/oauth/v2/authorize?${query}`, { headers: cookie ? { cookie } : {} }));
  const html = await response.text();
  expect(response.status).toBe(200);
  return {
    workspace: /<p class="lead">([^<]+?) <span/.exec(html)?.[1],
    installer: /<select id="user_id"[^>]*>.*?<option value="([^"]+)" selected/s.exec(html)?.[1],
  };
}

/** Continue on the "Sign in with" page as `userId` of `ws`: the cookie the browser keeps. */
async function signIn(s: ReturnType<typeof setUp>, ws: Workspace, userId: string): Promise<string> {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: s.app.clientId,
    scope: "openid profile",
    redirect_uri: SIGN_IN_REDIRECT,
    state: "s",
    team: ws.team.id,
  });
  const response = await s.emulator.fetch(
    new Request(`${BASE}/openid/connect/authorize?${query}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision: "allow", user_id: userId }),
    }),
  );
  expect(response.status).toBe(302);
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toMatch(/; Path=\/emulator;/);
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  return setCookie.split(";")[0]!;
}

describe("the consent page of a browser that signed in to the emulator", () => {
  it("opens as the member who signed in: the workspace the link names, with them preselected as who allows", async () => {
    const s = setUp();
    const cookie = await signIn(s, s.two, s.member);
    expect(await consentPage(s, cookie, s.two.team.id)).toEqual({ workspace: s.two.team.name, installer: s.member });
  });

  it("opens on their workspace when the link names none", async () => {
    const s = setUp();
    const cookie = await signIn(s, s.two, s.member);
    expect(await consentPage(s, cookie)).toEqual({ workspace: s.two.team.name, installer: s.member });
  });

  it("names the primary owner in another workspace, and for a browser that signed in nowhere or holds a cookie naming nobody", async () => {
    const s = setUp();
    const cookie = await signIn(s, s.two, s.member);
    expect(await consentPage(s, cookie, s.one.team.id)).toEqual({ workspace: s.one.team.name, installer: installingUserId(s.one) });
    expect(await consentPage(s, undefined)).toEqual({ workspace: s.one.team.name, installer: installingUserId(s.one) });
    expect(await consentPage(s, `emulator_signed_in=${s.two.team.id}.U0NOBODY1`)).toEqual({ workspace: s.one.team.name, installer: installingUserId(s.one) });
  });

  it("preselects them on the next sign-in too", async () => {
    const s = setUp();
    const cookie = await signIn(s, s.two, s.member);
    const query = new URLSearchParams({ response_type: "code", client_id: s.app.clientId, scope: "openid", redirect_uri: SIGN_IN_REDIRECT, state: "s" });
    const html = await (await s.emulator.fetch(new Request(`${BASE}/openid/connect/authorize?${query}`, { headers: { cookie } }))).text();
    expect(/<p class="lead">([^<]+?) <span/.exec(html)?.[1]).toBe(s.two.team.name);
    expect(/<option value="([^"]+)" selected/.exec(html)?.[1]).toBe(s.member);
  });
});
