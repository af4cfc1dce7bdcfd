import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as installRoute } from "@/app/oauth/install/route";
import { installScopes } from "@/lib/oauth/install-scopes";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";

/**
 * "Add to workspace" asks for the scopes the app's settings show (its manifest), with BOT_SCOPES and
 * USER_SCOPES unset, as they are by default (issue 36, item 6).
 */
let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

async function askedScopes(path = "/oauth/install") {
  const response = await new TestBrowser(testConsole.origin).send(installRoute, path);
  const url = new URL(response.headers.get("location") ?? "");
  return { bot: url.searchParams.get("scope")?.split(",") ?? [], user: url.searchParams.get("user_scope")?.split(",") ?? [] };
}

/** The app's scopes changed in its settings, as an admin saves them (the emulator's admin surface, with its token). */
async function saveScopes(bot: string[], user: string[]) {
  const headers = { authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}`, "content-type": "application/json" };
  const { apps } = (await (await fetch(`${testConsole.origin}/emulator/admin/apps`, { headers })).json()) as {
    apps: { app_id: string; name: string; manifest: { oauth_config: Record<string, unknown> } }[];
  };
  const app = apps.find((a) => a.name === "Switchboard Rotation")!;
  const manifest = { ...app.manifest, oauth_config: { ...app.manifest.oauth_config, scopes: { bot, user } } };
  const answer = await fetch(`${testConsole.origin}/emulator/admin/apps`, { method: "POST", headers, body: JSON.stringify({ app_id: app.app_id, manifest }) });
  expect(answer.status).toBe(200);
}

describe("the scopes Add to workspace asks for", () => {
  it("are the app's, as its settings show them: channels:join among them", async () => {
    const scopes = await askedScopes();
    expect(scopes.bot).toContain("channels:join");
    expect(scopes.bot.sort()).toEqual(
      [
        "app_mentions:read",
        "channels:history",
        "channels:join",
        "channels:read",
        "chat:write",
        "chat:write.public",
        "incoming-webhook",
        "users:read",
        "users:read.email",
      ].sort(),
    );
    expect(scopes.user.sort()).toEqual(["channels:history", "channels:read", "chat:write", "users:read"]);
  });

  it("follow a change saved in the app's settings, without a reinstall link of their own", async () => {
    await saveScopes(["chat:write", "reactions:read"], ["users:read"]);
    expect(await askedScopes()).toEqual({ bot: ["chat:write", "reactions:read"], user: ["users:read"] });
  });

  it("are the link's own when it names them (a reinstall asking for a missing scope)", async () => {
    expect(await askedScopes("/oauth/install?scope=users:read&user_scope=")).toEqual({ bot: ["users:read"], user: [""] });
  });

  it("fall back to the console's list when the app's configuration cannot be read, and to BOT_SCOPES / USER_SCOPES before it when set", async () => {
    const unreadable = async () => undefined;
    const fallback = await installScopes({ link: {}, configured: { bot: undefined, user: undefined }, app: unreadable });
    expect(fallback.bot.split(",")).toEqual(expect.arrayContaining(["users:read", "chat:write", "incoming-webhook"]));
    expect(fallback.user).toBe("users:read");
    const app = async () => ({ appId: "A0X", name: "X", scopes: { bot: ["channels:join"], user: ["search:read"] } });
    expect(await installScopes({ link: {}, configured: { bot: ["chat:write"], user: undefined }, app })).toEqual({ bot: "chat:write", user: "search:read" });
  });
});
