import { describe, expect, it } from "vitest";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { createHarness, REDIRECT_URI } from "./support/emulator-harness";

describe("the OAuth consent page", () => {
  it("shows the app, the workspace, the bot and user scopes, and Allow and Cancel buttons", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const response = await h.emulator.fetch(new Request(h.authorizeUrl(rotation, { scope: ["users:read", "chat:write"], userScope: ["users:read"] })));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toContain("Switchboard Rotation");
    expect(html).toContain(h.emulator.state.workspace.team.name);
    expect(html).toContain("chat:write");
    expect(html).toContain("on your behalf");
    expect(html).toMatch(/<button[^>]*value="allow"[^>]*>Allow<\/button>/);
    expect(html).toMatch(/<button[^>]*value="deny"[^>]*>Cancel<\/button>/);
    expect(html).not.toContain('name="channel_id"');
  });

  it("offers a channel picker when incoming-webhook is requested, #general preselected", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const html = await (await h.emulator.fetch(new Request(h.authorizeUrl(rotation, { scope: ["incoming-webhook"] })))).text();
    expect(html).toContain('<select id="channel_id" name="channel_id"');
    const general = h.emulator.state.workspace.channels.find((c) => c.name === "general");
    expect(html).toContain(`<option value="${general?.id}" selected>#general</option>`);
    // Archived channels cannot receive a webhook.
    expect(html).not.toContain("#old-website");
  });

  it("posts the form back to the same URL, query string included", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const url = h.authorizeUrl(rotation);
    const html = await (await h.emulator.fetch(new Request(url))).text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
    expect(action).toBe(url);
  });

  it("Allow answers 302 to the redirect URI with a code and the state", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const response = await h.decide(h.authorizeUrl(rotation, { state: "s-42" }), "allow");
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get("code")).toMatch(/^\d+\.\d+\.[0-9a-f]+$/);
    expect(location.searchParams.get("state")).toBe("s-42");
  });

  it("Cancel answers 302 with error=access_denied and the state, and no code", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const response = await h.decide(h.authorizeUrl(rotation, { state: "s-43" }), "deny");
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("s-43");
    expect(location.searchParams.has("code")).toBe(false);
  });

  it("an unknown client_id gets an error page, never a redirect", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const url = h.authorizeUrl({ ...rotation, client_id: "1234.5678" });
    for (const response of [await h.emulator.fetch(new Request(url)), await h.decide(url, "allow")]) {
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("invalid_client_id");
    }
  });

  it("a redirect_uri the app did not register gets an error page, never a redirect", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const url = h.authorizeUrl(rotation, { redirectUri: "https://attacker.example/callback" });
    for (const response of [await h.emulator.fetch(new Request(url)), await h.decide(url, "deny")]) {
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("bad_redirect_uri");
    }
  });

  it("accepts a redirect_uri below a registered one, as the platform does", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const response = await h.decide(h.authorizeUrl(rotation, { redirectUri: `${REDIRECT_URI}/nested` }), "allow");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^http:\/\/localhost:3000\/oauth\/callback\/nested\?code=/);
  });

  it("refuses a redirect_uri whose path hides a way out of the registered one (%2f, %5c, %2e, backslash)", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const tricks = ["/..%2f..%2fevil", "/..%2F..%2Fevil", "/..%5cevil", "/%2e%2e/evil", "/%2E%2E%2Fevil", "\\..\\evil"];
    for (const trick of tricks) {
      const url = h.authorizeUrl(rotation, { redirectUri: `${REDIRECT_URI}${trick}` });
      for (const response of [await h.emulator.fetch(new Request(url)), await h.decide(url, "allow")]) {
        expect(response.status, trick).toBe(400);
        expect(response.headers.get("location")).toBeNull();
        expect(await response.text()).toContain("bad_redirect_uri");
      }
    }
    // An encoded slash in the query is not in the path: still accepted.
    const withQuery = await h.decide(h.authorizeUrl(rotation, { redirectUri: `${REDIRECT_URI}?next=%2Fhome` }), "allow");
    expect(withQuery.status).toBe(302);
  });

  it("registers the redirect URLs given in the options on the default apps", async () => {
    const h = createHarness({ redirectUrls: ["http://127.0.0.1:3205/oauth/callback"] });
    const { rotation, legacy } = await h.apps();
    expect(rotation.redirect_urls).toEqual([REDIRECT_URI, "http://127.0.0.1:3205/oauth/callback"]);
    expect(legacy.redirect_urls).toEqual(rotation.redirect_urls);
    const response = await h.decide(h.authorizeUrl(rotation, { redirectUri: "http://127.0.0.1:3205/oauth/callback" }), "allow");
    expect(response.status).toBe(302);
  });

  it("refuses a request without scopes and scopes the app does not declare", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const none = await h.emulator.fetch(new Request(h.authorizeUrl(rotation, { scope: [], userScope: [] })));
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("no_scopes");
    const undeclared = await h.emulator.fetch(new Request(h.authorizeUrl(rotation, { scope: ["admin"] })));
    expect(undeclared.status).toBe(400);
    expect(await undeclared.text()).toContain("invalid_scope");
  });

  it("escapes what it shows", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const url = new URL(h.authorizeUrl(rotation));
    url.searchParams.set("state", '"><script>alert(1)</script>');
    const html = await (await h.emulator.fetch(new Request(url))).text();
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("refuses a form without a decision, and a webhook channel that does not exist", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const noDecision = await h.emulator.fetch(new Request(h.authorizeUrl(rotation), { method: "POST", body: new URLSearchParams() }));
    expect(noDecision.status).toBe(400);
    const badChannel = await h.decide(h.authorizeUrl(rotation, { scope: ["incoming-webhook"] }), "allow", "C0NOPE");
    expect(badChannel.status).toBe(400);
    expect(badChannel.headers.get("location")).toBeNull();
  });
});

describe("authorization codes", () => {
  it("are single use: the second oauth.v2.access with the same code gets invalid_code", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const code = await h.authorizeCode(rotation);
    const credentials = { client_id: rotation.client_id, client_secret: rotation.client_secret };
    expect((await h.call("oauth.v2.access", { code, ...credentials })).body.ok).toBe(true);
    expect((await h.call("oauth.v2.access", { code, ...credentials })).body).toEqual({ ok: false, error: "invalid_code" });
  });

  it("expire after 10 minutes", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const credentials = { client_id: rotation.client_id, client_secret: rotation.client_secret };
    const fresh = await h.authorizeCode(rotation);
    h.clock.advance(9 * 60_000 + 59_000);
    expect((await h.call("oauth.v2.access", { code: fresh, ...credentials })).body.ok).toBe(true);
    const stale = await h.authorizeCode(rotation);
    h.clock.advance(10 * 60_000);
    expect((await h.call("oauth.v2.access", { code: stale, ...credentials })).body.error).toBe("invalid_code");
  });

  it("belong to the app they were issued for", async () => {
    const h = createHarness();
    const { rotation, legacy } = await h.apps();
    const code = await h.authorizeCode(rotation);
    const { body } = await h.call("oauth.v2.access", { code, client_id: legacy.client_id, client_secret: legacy.client_secret });
    expect(body.error).toBe("invalid_code");
  });

  it("must be redeemed with the redirect_uri of the authorize request, when one is sent", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const credentials = { client_id: rotation.client_id, client_secret: rotation.client_secret };
    const code = await h.authorizeCode(rotation);
    const wrong = await h.call("oauth.v2.access", { code, redirect_uri: "http://localhost:3000/elsewhere", ...credentials });
    expect(wrong.body).toEqual({ ok: false, error: "bad_redirect_uri" });
    const right = await h.call("oauth.v2.access", { code, redirect_uri: REDIRECT_URI, ...credentials });
    expect(right.body.ok).toBe(true);
  });

  it("gibberish is invalid_code", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const { body } = await h.call("oauth.v2.access", { code: "nope", client_id: rotation.client_id, client_secret: rotation.client_secret });
    expect(body.error).toBe("invalid_code");
  });
});

describe("several members installing one app", () => {
  it("offers whom to install as, the primary owner preselected, and refuses a bot user or a stranger", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const ws = h.emulator.state.workspace;
    const html = await (await h.emulator.fetch(new Request(h.authorizeUrl(rotation)))).text();
    expect(html).toContain('<select id="user_id" name="user_id"');
    expect(html).toMatch(new RegExp(`<option value="${memberIdAt(ws, 0)}" selected>`));
    await h.install(rotation);
    const botUser = ws.bots[0]!.userId;
    for (const userId of [botUser, "U0NOBODY0"]) {
      const refused = await h.decide(h.authorizeUrl(rotation), "allow", undefined, userId);
      expect(refused.status, userId).toBe(400);
      expect(await refused.text()).toContain("Pick a member");
    }
  });

  it("gives each member who installs with user scopes a user token of their own, which acts and renews as them", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const ws = h.emulator.state.workspace;
    const [first, second] = [memberIdAt(ws, 0), memberIdAt(ws, 1)];
    const a = await h.install(rotation, { userId: first });
    const b = await h.install(rotation, { userId: second });
    const aUser = a.authed_user as { id: string; access_token: string; refresh_token: string };
    const bUser = b.authed_user as { id: string; access_token: string; refresh_token: string };
    expect([aUser.id, bUser.id]).toEqual([first, second]);
    expect(bUser.access_token).not.toBe(aUser.access_token);
    // One installation: the second install updated it (its authed user is now the second member).
    expect(h.emulator.state.installations.size).toBe(1);
    // Each token is its member's, the first one still alive after the second install.
    expect(await h.authTest(aUser.access_token)).toMatchObject({ ok: true, user_id: first });
    expect(await h.authTest(bUser.access_token)).toMatchObject({ ok: true, user_id: second });
    // A refresh renews the first member's token as theirs.
    const renewed = await h.refresh(rotation, aUser.refresh_token);
    expect(renewed).toMatchObject({ ok: true, token_type: "user", authed_user: { id: first } });
    expect(await h.authTest(renewed.access_token as string)).toMatchObject({ ok: true, user_id: first });
    // The active-token limit counts each member's tokens apart: the second member's token survives the first's refreshes.
    let refreshToken = renewed.refresh_token as string;
    for (let i = 0; i < 3; i++) refreshToken = (await h.refresh(rotation, refreshToken)).refresh_token as string;
    expect(await h.authTest(bUser.access_token)).toMatchObject({ ok: true, user_id: second });
  });
});
