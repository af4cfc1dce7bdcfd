import { describe, expect, it } from "vitest";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import { ADMIN_HEADERS, BASE, callApi, install, startEmulator, type Json } from "./workspace/support";

describe("GET /admin/state?team_id=", () => {
  it("answers that workspace's team and channels with messages, and 404 team_not_found for one it does not have", async () => {
    const { emulator } = startEmulator({ workspaces: 2 });
    const [, second] = [...emulator.state.workspaces.values()];
    const { botToken } = await install(emulator, { botScopes: ["chat:write", "chat:write.public"] });
    const general = emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    expect((await callApi(emulator, "chat.postMessage", { channel: general.id, text: "in the first" }, botToken)).ok).toBe(true);

    const state = async (query: string) => emulator.fetch(new Request(`${BASE}/admin/state${query}`, { headers: ADMIN_HEADERS }));
    const first = (await (await state("")).json()) as { team: { id: string }; channels: { id: string }[] };
    expect(first.team.id).toBe(emulator.state.workspace.team.id);
    expect(first.channels.map((c) => c.id)).toEqual([general.id]);

    const other = (await (await state(`?team_id=${second!.team.id}`)).json()) as { team: { id: string }; channels: unknown[] };
    expect(other.team.id).toBe(second!.team.id);
    expect(other.channels).toEqual([]);

    const unknown = await state("?team_id=T0NOTHERE");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe("team_not_found");
  });

  it("shows the workspace's user groups and assistant threads beside its channels, and none of another workspace's", async () => {
    const scopes = ["chat:write", "chat:write.public", "usergroups:write", "usergroups:read", "assistant:write"];
    const apps = defaultAppManifests().map((m) => ({ ...m, oauth_config: { ...m.oauth_config, scopes: { bot: scopes } } }));
    const { emulator } = startEmulator({ workspaces: 2, apps });
    const [first, second] = [...emulator.state.workspaces.values()];
    const { botToken, app } = await install(emulator, { botScopes: scopes });
    const general = first!.channels.find((c) => c.isGeneral)!;
    const group = (await callApi(emulator, "usergroups.create", { name: "Marketing", handle: "marketing" }, botToken)).usergroup as Json;
    const thread = (await callApi(emulator, "chat.postMessage", { channel: general.id, text: "help?" }, botToken)).ts as string;
    const set = await callApi(emulator, "assistant.threads.setStatus", { channel_id: general.id, thread_ts: thread, status: "is thinking…" }, botToken);
    expect(set.ok).toBe(true);
    expect((await callApi(emulator, "assistant.threads.setTitle", { channel_id: general.id, thread_ts: thread, title: "Help" }, botToken)).ok).toBe(true);

    const state = async (query: string) =>
      (await (await emulator.fetch(new Request(`${BASE}/admin/state${query}`, { headers: ADMIN_HEADERS }))).json()) as Json;
    const shown = await state("");
    expect(shown.usergroups).toEqual([
      expect.objectContaining({ id: group.id, name: "Marketing", handle: "marketing", date_delete: 0, users: [], user_count: 0 }),
    ]);
    expect(shown.assistant_threads).toEqual([
      expect.objectContaining({ channel_id: general.id, thread_ts: thread, app_id: app.id, status: "is thinking…", title: "Help", suggested_prompts: [] }),
    ]);
    const other = await state(`?team_id=${second!.team.id}`);
    expect(other).toMatchObject({ usergroups: [], assistant_threads: [] });
  });
});
