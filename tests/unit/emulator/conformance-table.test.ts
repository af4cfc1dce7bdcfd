import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CONFORMANCE_END, CONFORMANCE_START, conformanceTable, withConformanceTable } from "@/scripts/method-catalog/conformance";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import { METHODS } from "@/lib/emulator/web-api/methods";
import type { CatalogMethod } from "@/lib/explorer/catalog/types";

const DOC = fileURLToPath(new URL("../../../docs/emulator.md", import.meta.url));
const answered = new Set(METHODS.keys());

/** The generated rows of the committed table, by method name. */
function committedRows(): Map<string, string[]> {
  const doc = readFileSync(DOC, "utf8");
  const table = doc.slice(doc.indexOf(CONFORMANCE_START), doc.indexOf(CONFORMANCE_END));
  return new Map(
    table
      .split("\n")
      .filter((line) => line.startsWith("| `"))
      .map((line) => {
        const cells = line.split(" | ").map((cell) => cell.replace(/^\| |\|$/g, "").trim());
        return [cells[0]!.replaceAll("`", ""), cells.slice(1)];
      }),
  );
}

describe("docs/emulator.md's conformance table", () => {
  it("is what the code makes of it today (run `npm run conformance` when this fails)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc === withConformanceTable(doc, METHOD_CATALOG, answered), "docs/emulator.md's conformance table is out of date: run npm run conformance").toBe(
      true,
    );
  });

  it("has a row per catalogued method, saying whether the emulator answers it, its tier and its scopes", () => {
    const rows = committedRows();
    expect([...rows.keys()]).toEqual(METHOD_CATALOG.map((method) => method.name));
    expect(rows.get("chat.postMessage")).toEqual(["yes", "special", "bot: `chat:write`; user: `chat:write`"]);
    expect(rows.get("conversations.join")).toEqual(["yes", "3", "bot: `channels:join`; user: `channels:write`"]);
    expect(rows.get("apps.manifest.export")).toEqual(["yes", "3", "configuration token: `app_configurations:read`"]);
    expect(rows.get("openid.connect.userInfo")).toEqual(["yes", "3", "user token only: `openid`"]);
    expect(rows.get("auth.test")).toEqual(["yes", "special", "none"]);
    expect(rows.get("admin.apps.approve")).toEqual(["no", "not documented", "any token, one of: `admin.apps:write` (OpenAPI)"]);
    const count = [...rows.values()].filter(([isAnswered]) => isAnswered === "yes").length;
    expect(count).toBe(answered.size);
  });

  it("changes when the code does: a method the emulator starts answering, a tier corrected", () => {
    const doc = readFileSync(DOC, "utf8");
    const more = new Set([...answered, "admin.apps.approve"]);
    expect(withConformanceTable(doc, METHOD_CATALOG, more)).not.toBe(doc);
    const retiered = METHOD_CATALOG.map((method): CatalogMethod => (method.name === "users.list" ? { ...method, rateTier: 3 } : method));
    expect(withConformanceTable(doc, retiered, answered)).not.toBe(doc);
    expect(conformanceTable(retiered, answered)).toContain("| `users.list` | yes | 3 | bot: `users:read`; user: `users:read` |");
  });

  it("refuses a document without its markers rather than losing the table", () => {
    expect(() => withConformanceTable("# no table here\n", METHOD_CATALOG, answered)).toThrow(/markers/);
  });
});
