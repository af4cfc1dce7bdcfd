import { beforeAll, describe, expect, it } from "vitest";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { answeredMethods, unknownMethodAdvice } from "@/lib/explorer/method-suggestions";
import { createHarness, type Json } from "../emulator/support/emulator-harness";

/** The emulator's own list of its methods, as it describes itself (GET /admin/methods). */
let emulated: ReadonlyMap<string, { name: string }>;

beforeAll(async () => {
  const { body } = await createHarness().admin("methods");
  emulated = new Map((body.methods as Json[]).map((m) => [m.name as string, { name: m.name as string }]));
});

describe("unknown_method from the embedded emulator", () => {
  it("says the emulator does not implement a method of the platform's catalog, and offers only methods it implements", () => {
    const lacking = METHOD_CATALOG.filter((m) => !emulated.has(m.name));
    expect(lacking.length).toBeGreaterThan(100);
    for (const { name } of lacking) {
      const advice = unknownMethodAdvice(name, "emulator", METHOD_CATALOG, emulated);
      expect(advice.notImplemented).toBe(true);
      expect(advice.implementedCount).toBe(emulated.size);
      for (const suggestion of advice.suggestions) expect(emulated.has(suggestion), `${name} → ${suggestion}`).toBe(true);
    }
    // dnd.setSnooze's nearest names in the catalog (dnd.endSnooze, dnd.endDnd) are not the emulator's either: none is offered.
    expect(emulated.has("dnd.endSnooze")).toBe(false);
    expect(unknownMethodAdvice("dnd.setSnooze", "emulator", METHOD_CATALOG, emulated).suggestions).not.toContain("dnd.endSnooze");
    expect(unknownMethodAdvice("chat.meMessage", "emulator", METHOD_CATALOG, emulated).suggestions).toEqual(["chat.postMessage"]);
  });

  it("treats a name outside the catalog as a slip, offering the emulator's nearest names", () => {
    // The nearest first (usergroups.users.list ends the same way, further off).
    const slip = unknownMethodAdvice("users.lst", "emulator", METHOD_CATALOG, emulated);
    expect(slip.notImplemented).toBe(false);
    expect(slip.suggestions[0]).toBe("users.list");
    const advice = unknownMethodAdvice("conversations.archiv", "emulator", METHOD_CATALOG, emulated);
    expect(advice.notImplemented).toBe(false);
    expect(advice.suggestions).toContain("conversations.archive");
    // A slip near a method the emulator does not answer is offered only what it answers.
    expect(unknownMethodAdvice("dnd.setSnoze", "emulator", METHOD_CATALOG, emulated).suggestions).not.toContain("dnd.setSnooze");
  });

  it("offers nothing while the emulator's list is loading, rather than names it may not answer", () => {
    expect(answeredMethods("emulator", METHOD_CATALOG, undefined)).toBeUndefined();
    expect(unknownMethodAdvice("conversations.archiv", "emulator", METHOD_CATALOG, undefined).suggestions).toEqual([]);
  });
});

describe("unknown_method from the platform", () => {
  it("offers the catalog's nearest names", () => {
    const advice = unknownMethodAdvice("conversations.archiv", "platform", METHOD_CATALOG, undefined);
    expect(advice.notImplemented).toBe(false);
    expect(advice.suggestions[0]).toBe("conversations.archive");
  });
});
