import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INTERACTIONS_END, INTERACTIONS_START, interactionTable, withInteractionTable } from "@/scripts/method-catalog/interactions";
import { INTERACTION_TYPES } from "@/lib/emulator/interactivity/catalog";

const DOC = fileURLToPath(new URL("../../../docs/emulator.md", import.meta.url));

describe("docs/emulator.md's interactions table", () => {
  it("is what the code makes of it today (run `npm run conformance` when this fails)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc === withInteractionTable(doc, INTERACTION_TYPES), "docs/emulator.md's interactions table is out of date: run npm run conformance").toBe(true);
  });

  it("has a row per interaction type the platform sends an app", () => {
    const doc = readFileSync(DOC, "utf8");
    const table = doc.slice(doc.indexOf(INTERACTIONS_START), doc.indexOf(INTERACTIONS_END));
    const types = table
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => line.split(" | ")[0]!.replace(/^\| /, "").replaceAll("`", ""));
    expect(types.sort()).toEqual(["block_actions", "block_suggestion", "message_action", "shortcut", "slash_commands", "view_closed", "view_submission"]);
  });

  it("changes when the code does, and refuses a document without its markers", () => {
    const doc = readFileSync(DOC, "utf8");
    const more = [...INTERACTION_TYPES, { type: "workflow_step_edit", envelope: "interactive" as const, http: "x", route: "y", answer: "z" }];
    expect(withInteractionTable(doc, more)).not.toBe(doc);
    expect(interactionTable(more)[0]).toBe("The emulator sends 8 kinds of interaction.");
    expect(() => withInteractionTable("# no table here\n", INTERACTION_TYPES)).toThrow(/markers/);
  });
});
