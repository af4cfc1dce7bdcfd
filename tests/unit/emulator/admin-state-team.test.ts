import { describe, expect, it } from "vitest";
import { ADMIN_HEADERS, BASE, callApi, install, startEmulator } from "./workspace/support";

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
});
