/**
 * Fidelity defects found running real apps (issue 39): a post to a user id lands in the app's DM with that
 * person, conversations.list refuses the types a token may not read, and reactions take only emoji names.
 */
import { describe, expect, it } from "vitest";
import type { AppManifest } from "@/lib/emulator";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { createHarness, type Harness } from "./support/emulator-harness";

const EXTRA = ["groups:read", "im:history", "im:read", "im:write", "mpim:read", "reactions:write"];

/** The default apps, with the scopes these checks need declared in their manifests. */
function manifests(): AppManifest[] {
  return defaultAppManifests().map((m) => ({
    ...m,
    oauth_config: { ...m.oauth_config, scopes: { bot: [...(m.oauth_config?.scopes?.bot ?? []), ...EXTRA], user: m.oauth_config?.scopes?.user ?? [] } },
  }));
}

async function setUp(scope: string[]): Promise<{ h: Harness; token: string; member: string }> {
  const h = createHarness({ apps: manifests() });
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope });
  return { h, token: grant.access_token, member: grant.authed_user.id };
}

describe("chat.postMessage to a user id", () => {
  it("posts to the app's DM with that person, the one conversations.open opens, and answers its channel id", async () => {
    const { h, token, member } = await setUp(["chat:write", "im:history", "im:write"]);
    const first = (await h.call("chat.postMessage", { channel: member, text: "Deploy finished" }, { token })).body;
    expect(first.ok).toBe(true);
    expect(first.channel).toMatch(/^D[0-9A-Z]+$/);

    // The same im, opened already: conversations.open finds it, and a second post lands beside the first.
    const opened = (await h.call("conversations.open", { users: member }, { token })).body;
    expect(opened).toMatchObject({ ok: true, already_open: true, channel: { id: first.channel } });
    expect((await h.call("chat.postMessage", { channel: member, text: "And tested" }, { token })).body.channel).toBe(first.channel);
    const history = (await h.call("conversations.history", { channel: first.channel }, { token })).body;
    expect(history.messages.map((m: { text: string }) => m.text)).toEqual(["And tested", "Deploy finished"]);
  });

  it("posts to an im conversations.open opened before, and answers channel_not_found for an unknown user id", async () => {
    const { h, token } = await setUp(["chat:write", "im:write"]);
    const someone = memberIdAt(h.emulator.state.workspace, 3);
    const opened = (await h.call("conversations.open", { users: someone }, { token })).body;
    expect((await h.call("chat.postMessage", { channel: someone, text: "hi" }, { token })).body).toMatchObject({ ok: true, channel: opened.channel.id });
    expect((await h.call("chat.postMessage", { channel: "U0NOBODY1", text: "hi" }, { token })).body.error).toBe("channel_not_found");
  });
});

describe("conversations.list with types the token may not read", () => {
  it("answers missing_scope naming the first missing scope, and lists once the token has them", async () => {
    const narrow = await setUp(["channels:read"]);
    const list = (types: string, s = narrow) => s.h.call("conversations.list", { types }, { token: s.token }).then((r) => r.body);
    for (const [types, needed] of [
      ["im", "im:read"],
      ["mpim", "mpim:read"],
      ["private_channel", "groups:read"],
      ["public_channel,im,mpim,private_channel", "groups:read"],
    ]) {
      const body = await list(types as string);
      expect(body, types).toMatchObject({ ok: false, error: "missing_scope", needed });
      expect(body.provided.split(",")).toContain("channels:read");
    }
    expect((await list("public_channel")).ok).toBe(true);

    const wide = await setUp(["channels:read", "groups:read", "im:read", "im:write", "mpim:read"]);
    const member = memberIdAt(wide.h.emulator.state.workspace, 2);
    const im = (await wide.h.call("conversations.open", { users: member }, { token: wide.token })).body.channel.id;
    const body = await list("public_channel,private_channel,mpim,im", wide);
    expect(body.ok).toBe(true);
    expect(body.channels.map((c: { id: string }) => c.id)).toContain(im);
  });
});

describe("reactions.add takes emoji names only", () => {
  it("answers invalid_name for a name that is no emoji, and adds standard names, with skin tones where they apply", async () => {
    const { h, token } = await setUp(["chat:write", "chat:write.public", "reactions:write"]);
    const channel = h.emulator.state.workspace.channels.find((c) => c.name === "random")!.id;
    const { ts } = (await h.call("chat.postMessage", { channel, text: "Shipped" }, { token })).body;
    const add = (name: string) => h.call("reactions.add", { channel, timestamp: ts, name }, { token }).then((r) => r.body.ok || r.body.error);
    for (const name of ["thumbsup", "+1", ":white_check_mark:", "wave::skin-tone-3", "thumbsup::skin-tone-6", "flag-fr", "100"])
      expect(await add(name), name).toBe(true);
    for (const name of ["not-an-emoji", "thumbsup2", "rocket::skin-tone-2", "wave::skin-tone-7", "THUMBSUP", ""])
      expect(await add(name), name).toBe("invalid_name");
  });
});
