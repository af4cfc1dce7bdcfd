import { describe, expect, it } from "vitest";
import { addBotUser, addJoinedMember, memberAt, memberIdAt } from "@/lib/emulator/workspace/members";
import { findPeople } from "@/lib/emulator/workspace/people-search";
import { createWorkspace } from "@/lib/emulator/workspace/workspace";

/** "Find someone" on the Workspace page: any person of the workspace by name or id, never an app's bot user. */
describe("findPeople", () => {
  const ws = createWorkspace({ seed: "people-search", users: 3000 });
  const far = memberAt(ws, 2500, "");
  const name = String(far.real_name);

  it("finds a member far down the list by their name, whatever its case and accents", () => {
    const found = findPeople(ws, name.toUpperCase(), { limit: 20, baseUrl: "" });
    expect(found.people).toContainEqual({ id: memberIdAt(ws, 2500), name });
    expect(found.next).toBeNull();
    // Typed without its accents, an accented name is found too.
    const accented = Array.from({ length: 3000 }, (_, i) => String(memberAt(ws, i, "").real_name)).find(
      (n) => n !== n.normalize("NFD").replace(/[\u0300-\u036f]/g, ""),
    );
    expect(accented).toBeDefined();
    const plain = accented!
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
    expect(findPeople(ws, plain, { limit: 100, baseUrl: "" }).people.map((p) => p.name)).toContain(accented);
  });

  it("finds one by their id first, and a person who joined, but never a bot user", () => {
    expect(findPeople(ws, memberIdAt(ws, 2999).toLowerCase(), { limit: 1, baseUrl: "" }).people).toEqual([
      { id: memberIdAt(ws, 2999), name: String(memberAt(ws, 2999, "").real_name) },
    ]);
    const joined = addJoinedMember(ws, { realName: "Grace Hopper" }, Date.now());
    expect(findPeople(ws, "grace hop", { limit: 20, baseUrl: "" }).people).toEqual([{ id: joined.userId, name: "Grace Hopper" }]);
    const bot = addBotUser(ws, { appId: "A0SEARCH", appName: "Grace Bot" }, Date.now());
    expect(findPeople(ws, "grace", { limit: 100, baseUrl: "" }).people.map((p) => p.id)).not.toContain(bot.userId);
  });

  it("reads a bounded stretch at a time and says where to go on", () => {
    // Before the people the test above added: the search's stretches are positions of users.list.
    const first = findPeople(ws, name, { limit: 20, budget: 1000, baseUrl: "" });
    expect(first.people).toEqual([]);
    expect(first.next).toBe(1000);
    const rest = findPeople(ws, name, { from: 2000, limit: 20, budget: 1000, baseUrl: "" });
    expect(rest.people).toContainEqual({ id: memberIdAt(ws, 2500), name });
    expect(rest.next).toBe(3000);
    expect(findPeople(ws, name, { from: 3000, limit: 20, budget: 1000, baseUrl: "" }).next).toBeNull();
  });
});
