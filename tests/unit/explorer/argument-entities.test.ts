import { describe, expect, it } from "vitest";
import { findMethod } from "@/lib/explorer/catalog";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { argumentEntity, entityChoices } from "@/lib/explorer/argument-entities";

describe("arguments that name a channel, a member or a file", () => {
  it("are found from the catalog's string arguments by the platform's names", () => {
    const entities = (method: string) => findMethod(METHOD_CATALOG, method)!.args.map((arg) => [arg.name, argumentEntity(arg)]);
    expect(entities("conversations.history")).toContainEqual(["channel", "channel"]);
    expect(entities("users.info")).toContainEqual(["user", "user"]);
    expect(entities("files.info")).toContainEqual(["file", "file"]);
    expect(entities("conversations.history")).toContainEqual(["limit", null]);
    expect(argumentEntity({ name: "channel", type: "json" })).toBeNull();
  });

  it("list what the platform's answers name, as a person recognises them, deactivated members left out", () => {
    expect(entityChoices("channel", { ok: true, channels: [{ id: "C1", name: "general" }, { name: "no id" }] })).toEqual([{ id: "C1", label: "#general" }]);
    expect(
      entityChoices("user", {
        ok: true,
        members: [
          { id: "U1", real_name: "Ada Lovelace", profile: { display_name: "" } },
          { id: "U2", profile: { display_name: "Bea" } },
          { id: "U3", real_name: "Gone", deleted: true },
        ],
      }),
    ).toEqual([
      { id: "U1", label: "Ada Lovelace (U1)" },
      { id: "U2", label: "Bea (U2)" },
    ]);
    expect(entityChoices("file", { ok: true, files: [{ id: "F1", title: "Notes" }] })).toEqual([{ id: "F1", label: "Notes (F1)" }]);
    expect(entityChoices("file", { ok: false, error: "missing_scope" })).toEqual([]);
  });
});
