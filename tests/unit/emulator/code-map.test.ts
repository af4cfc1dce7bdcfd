import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EMULATOR_DIR = path.join(ROOT, "lib/emulator");

/** The rows of the markdown table that follows `heading` in docs/emulator.md's "Where the code is", as cells. */
function tableAfter(heading: RegExp): string[][] {
  const doc = readFileSync(path.join(ROOT, "docs/emulator.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Where the code is"));
  const lines = section.slice(section.search(heading)).split("\n");
  const start = lines.findIndex((line) => line.startsWith("|"));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith("|"));
  return lines.slice(start + 2, end === -1 ? undefined : end).map((row) =>
    row
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
}

/** The `…`-quoted names of a cell. */
const quoted = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function emulatorFiles(dir = EMULATOR_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? emulatorFiles(path.join(dir, entry.name)) : [path.relative(EMULATOR_DIR, path.join(dir, entry.name))],
  );
}

describe("docs/emulator.md's code map", () => {
  it("names every file under lib/emulator, each in its folder, and nothing else", () => {
    const mapped = tableAfter(/^\| folder /m).flatMap(([folder = "", files = ""]) =>
      quoted(files)
        .filter((name) => !name.endsWith("/"))
        .map((name) => path.normalize(path.join(quoted(folder)[0] ?? "", name))),
    );
    expect(mapped.sort()).toEqual(emulatorFiles().sort());
  });

  it("maps sections 2 to 9 of the spec to files that exist", () => {
    const rows = tableAfter(/^The spec's sections/m);
    expect(new Set(rows.map(([section = ""]) => section.split(/[.,]/)[0]))).toEqual(new Set(["2", "3", "4", "5", "6", "7", "8", "9"]));
    const paths = rows.flatMap(([, , files = ""]) => quoted(files).filter((name) => name.includes("/") && name.endsWith(".ts")));
    expect(paths.length).toBeGreaterThan(20);
    for (const file of paths) expect(existsSync(path.join(EMULATOR_DIR, file)), file).toBe(true);
  });
});
