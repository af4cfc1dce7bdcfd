import { describe, expect, it } from "vitest";
import { isAdmin, OPERATOR, type Viewer } from "@/lib/viewer";
import { canManage, canSee } from "@/lib/installations/universal/rights";
import { timelineName } from "@/lib/installations/who-did-it";

const member = (overrides: Partial<Extract<Viewer, { kind: "member" }>> = {}): Viewer => ({
  kind: "member",
  userId: "U1",
  teamId: "T1",
  name: "Ana",
  admin: false,
  ...overrides,
});

describe("who sees and manages an installation", () => {
  it("lets the operator of a console without sign-in, and admins, see and manage every installation", () => {
    const elsewhere = { team: { id: "T9" }, installedBy: "U9" };
    for (const viewer of [OPERATOR, member({ admin: true })]) {
      expect(isAdmin(viewer)).toBe(true);
      expect(canSee(viewer, elsewhere)).toBe(true);
      expect(canManage(viewer, elsewhere)).toBe(true);
    }
  });

  it("shows a member their workspace's installations, not another workspace's of the same organisation", () => {
    expect(canSee(member(), { team: { id: "T1" } })).toBe(true);
    expect(canSee(member(), { team: { id: "T2" } })).toBe(false);
    // On Enterprise Grid a workspace-level install names the organisation too: it stays that workspace's.
    expect(canSee(member({ enterpriseId: "E1" }), { team: { id: "T2" }, enterprise: { id: "E1" } })).toBe(false);
    expect(canSee(member({ enterpriseId: "E1" }), { team: { id: "T1" }, enterprise: { id: "E1" } })).toBe(true);
  });

  it("lets a member manage only what they installed (first, or last), in a workspace they see", () => {
    expect(canManage(member(), { team: { id: "T1" }, installedBy: "U1" })).toBe(true);
    expect(canManage(member(), { team: { id: "T1" }, installedBy: "U2", authedUserId: "U1" })).toBe(true);
    expect(canManage(member(), { team: { id: "T1" }, installedBy: "U2", authedUserId: "U3" })).toBe(false);
    expect(canManage(member(), { team: { id: "T1" } })).toBe(false);
    // The same user id in another workspace is another person.
    expect(canManage(member(), { team: { id: "T2" }, installedBy: "U1" })).toBe(false);
  });
});

describe("a person's name in the timeline", () => {
  it("keeps no control or format character, and is cut by code points, never inside an emoji", () => {
    expect(timelineName("Ana\u202Eevil\u0007")).toBe("Ana evil");
    const name = timelineName(`${"a".repeat(79)}😀😀`);
    expect(Array.from(name)).toHaveLength(80);
    expect(name.endsWith("😀")).toBe(true);
    expect(JSON.parse(JSON.stringify(name))).toBe(name);
    expect(timelineName("\ud800 lone")).toBe("lone");
  });
});
