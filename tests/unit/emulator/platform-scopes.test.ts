/**
 * Issue 22, item 14: the platform's scopes, recorded once (docs/reference/scopes.json, from its public
 * scopes page) and shared by the emulator and the console's settings page. The emulator refuses a scope the
 * platform does not have for that kind of token, in a manifest and at the consent page, as the platform does.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PLATFORM_SCOPES, scopeProblem } from "@/lib/emulator/scopes";
import { scopeProblems } from "@/lib/app-config/universal/manifest";
import { createHarness, type Json } from "./support/emulator-harness";

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), "utf8");

describe("the recorded list of scopes", () => {
  it("is docs/reference/scopes.json, which names its source, and the emulator's copy is the same file", () => {
    const reference = read("docs/reference/scopes.json");
    expect(read("lib/emulator/apps/platform-scopes.json")).toBe(reference);
    const { source } = JSON.parse(reference) as { source: { url: string; title: string } };
    expect(source).toMatchObject({ url: "https://api.slack.com/scopes", title: "Permission scopes" });
  });

  it("has the scopes the method reference lacked, each once, with the page's token types", () => {
    const names = PLATFORM_SCOPES.map((s) => s.name);
    for (const name of [
      "chat:write.public",
      "app_mentions:read",
      "channels:join",
      "commands",
      "files:write",
      "openid",
      "profile",
      "email",
      "connections:write",
    ]) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(100);
    for (const scope of PLATFORM_SCOPES) {
      expect(scope.name).toMatch(/^[a-z][a-z0-9_.:-]*$/);
      expect(scope.description.length).toBeGreaterThan(0);
      for (const type of scope.tokenTypes) expect(["bot", "user", "app", "configuration"]).toContain(type);
    }
  });

  it("says why a scope cannot go in a bot or user list, the same for the emulator and the settings page", () => {
    expect(scopeProblem("chat:write", "bot")).toBeUndefined();
    expect(scopeProblem("users:read", "user")).toBeUndefined();
    expect(scopeProblem("not-a-scope", "bot")).toBe("not-a-scope is not a scope the platform knows (see its scopes page, api.slack.com/scopes).");
    expect(scopeProblem("search:read", "bot")).toBe("search:read is a scope for user tokens, not a bot token scope.");
    expect(scopeProblem("connections:write", "bot")).toBe("connections:write is a scope for app-level tokens, not a bot token scope.");
    expect(scopeProblems("bot", ["chat:write", "not-a-scope"])).toEqual([scopeProblem("not-a-scope", "bot")]);
    // A scope the manifest already holds is the platform's to judge (the recorded list may lag behind it).
    expect(scopeProblems("bot", ["brand-new:scope"], ["brand-new:scope"])).toEqual([]);
  });
});

describe("the emulator", () => {
  const manifest = (bot: string[], user: string[] = []) => ({
    display_information: { name: "Scope Test App" },
    oauth_config: { redirect_urls: ["http://127.0.0.1:3206/cb"], scopes: { bot, user } },
  });

  it("refuses a manifest with a scope the platform does not have for that token, naming where (invalid_manifest)", async () => {
    const h = createHarness();
    const { body } = await h.admin("apps", manifest(["chat:write", "not-a-scope"], ["chat:write.public"]));
    expect(body).toMatchObject({ ok: false, error: "invalid_manifest" });
    expect(body.errors).toEqual([
      { message: expect.stringContaining("invalid_scope"), pointer: "/oauth_config/scopes/bot/1" },
      { message: expect.stringContaining("not a user token scope"), pointer: "/oauth_config/scopes/user/0" },
    ]);
    expect((await h.apps()).all.map((a) => a.name)).not.toContain("Scope Test App");

    const { token } = (await h.admin("config-tokens", {})).body as { token: string };
    const validated = await h.call("apps.manifest.validate", { manifest: JSON.stringify(manifest(["not-a-scope"])) }, { token });
    expect(validated.body).toMatchObject({ ok: false, error: "invalid_manifest", errors: [{ pointer: "/oauth_config/scopes/bot/0" }] });
  });

  it("answers invalid_scope at the consent page for a scope the platform does not know, and grants nothing", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    for (const opts of [{ scope: ["chat:write", "not-a-scope"] }, { scope: ["chat:write"], userScope: ["chat:write.public"] }]) {
      const page = await h.emulator.fetch(new Request(h.authorizeUrl(rotation, opts)));
      expect(page.status).toBe(400);
      const text = await page.text();
      expect(text).toContain("invalid_scope");
      const decided = await h.decide(h.authorizeUrl(rotation, opts), "allow");
      expect(decided.status).toBe(400);
      expect(decided.headers.get("location")).toBeNull();
    }
    const state = (await h.admin("state")).body as Json;
    expect(state.installations).toEqual([]);
  });
});
