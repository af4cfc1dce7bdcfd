import { describe, expect, it } from "vitest";
import { reinstallHref } from "@/lib/installations/universal/install-href";

/** The one "Add to workspace again" link, used by the installations page, the explorer and app settings. */
describe("reinstallHref", () => {
  const consoleApp = { app: { key: "console" as const }, team: { id: "T0AAA" } };

  it("without scopes asks for the app's own, into the installation's workspace (an admin's own may be another)", () => {
    expect(reinstallHref(consoleApp)).toBe("/oauth/install?team=T0AAA");
  });

  it("keeps app=legacy for the legacy app, so the reinstall repairs that installation rather than adding one", () => {
    expect(reinstallHref({ ...consoleApp, app: { key: "legacy" } })).toBe("/oauth/install?app=legacy&team=T0AAA");
  });

  it("asks for each scope once and preselects the installation's workspace", () => {
    const href = new URL(reinstallHref(consoleApp, ["chat:write", "users:read", "chat:write"], ["search:read"]), "http://console.test");
    expect(href.pathname).toBe("/oauth/install");
    expect(href.searchParams.get("scope")).toBe("chat:write,users:read");
    expect(href.searchParams.get("user_scope")).toBe("search:read");
    expect(href.searchParams.get("team")).toBe("T0AAA");
  });

  it("for an app with no installation yet (a manifest's new scopes) names no workspace, and an empty user scope list stays said", () => {
    const href = new URL(reinstallHref({ app: { key: "console" } }, ["chat:write"], []), "http://console.test");
    expect(href.searchParams.get("scope")).toBe("chat:write");
    expect(href.searchParams.get("user_scope")).toBe("");
    expect(href.searchParams.has("team")).toBe(false);
  });
});
