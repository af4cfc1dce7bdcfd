import { describe, expect, it } from "vitest";
import { createHarness, type AdminApp, type Harness } from "./support/emulator-harness";

/** Installs into the workspace `teamId` through its consent page: returns the oauth.v2.access answer. */
async function installInto(h: Harness, app: AdminApp, teamId: string) {
  const url = new URL(h.authorizeUrl(app));
  url.searchParams.set("team", teamId);
  const decided = await h.decide(url.toString(), "allow");
  expect(decided.status).toBe(302);
  const code = new URL(decided.headers.get("location") ?? "").searchParams.get("code") ?? "";
  const { body } = await h.call("oauth.v2.access", { code, client_id: app.client_id, client_secret: app.client_secret });
  expect(body.ok).toBe(true);
  return body;
}

describe("an emulated platform with several workspaces", () => {
  it("lists them in its state, each with its own team id and members", async () => {
    const h = createHarness({ workspaces: 3, users: 25 });
    const { body } = await h.admin("state");
    expect(body.workspaces).toHaveLength(3);
    expect(new Set(body.workspaces.map((w: { id: string }) => w.id)).size).toBe(3);
    expect(body.workspaces.map((w: { name: string }) => w.name)).toEqual(["Emulated Workspace", "Emulated Workspace 2", "Emulated Workspace 3"]);
    expect(body.workspaces[0].id).toBe(body.team.id);
  });

  it("installs an app into the workspace the link names, with tokens that see only that workspace", async () => {
    const h = createHarness({ workspaces: 2, users: 25 });
    const { rotation } = await h.apps();
    const [first, second] = h.emulator.state.workspaces.keys();
    const inFirst = await installInto(h, rotation, first!);
    const inSecond = await installInto(h, rotation, second!);
    expect(inFirst.team.id).toBe(first);
    expect(inSecond.team.id).toBe(second);
    expect((await h.authTest(inSecond.access_token)).team_id).toBe(second);

    const members = async (token: string) => (await h.call("users.list", { limit: "100" }, { token })).body.members as { id: string; team_id: string }[];
    const firstMembers = await members(inFirst.access_token);
    const secondMembers = await members(inSecond.access_token);
    expect(firstMembers).toHaveLength(26);
    expect(secondMembers).toHaveLength(26);
    expect(secondMembers.filter((m) => firstMembers.some((f) => f.id === m.id))).toEqual([]);

    // One installation per workspace: installing into the second left the first's tokens working.
    expect((await h.authTest(inFirst.access_token)).ok).toBe(true);
    expect((await h.admin("state")).body.installations.map((i: { team_id: string }) => i.team_id).sort()).toEqual([first, second].sort());
  });

  it("offers the other workspaces on the consent page, and refuses a team it does not have", async () => {
    const h = createHarness({ workspaces: 2 });
    const { rotation } = await h.apps();
    const page = await (await h.emulator.fetch(new Request(h.authorizeUrl(rotation)))).text();
    expect(page).toContain("Another workspace:");
    expect(page).toContain("Emulated Workspace 2");
    const unknown = new URL(h.authorizeUrl(rotation));
    unknown.searchParams.set("team", "T0NOTHERE");
    const refused = await h.emulator.fetch(new Request(unknown));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("This workspace could not be found");
  });

  it("is one workspace by default, as before", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    expect((await h.admin("state")).body.workspaces).toHaveLength(1);
    expect(await (await h.emulator.fetch(new Request(h.authorizeUrl(rotation)))).text()).not.toContain("Another workspace:");
  });
});
