import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeCycle, folderCycles, folderGraph, folderOf, type FolderGraph } from "@/scripts/check-folder-cycles";

/**
 * npm run lint:folders (scripts/check-folder-cycles.ts): the folders of lib/ import one another in one
 * direction. Each case closes a cycle (in a graph, in files on disk, in the project itself) and reads
 * whether the check names it, with the import that closed it.
 */

const ROOT = path.resolve(__dirname, "../../..");

function graphOf(edges: [from: string, to: string][]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const [from, to] of edges) {
    const targets = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, targets);
    targets.set(to, [`${from}/x.ts → @/${to}`]);
  }
  return graph;
}

describe("the folder graph's cycles", () => {
  it("names the folders that reach one another, and only those", () => {
    const graph = graphOf([
      ["lib/call", "lib/explorer"],
      ["lib/explorer", "lib/platform"],
      ["lib/platform", "lib/call"],
      ["app", "lib/call"],
      ["lib/call", "lib/log.ts"],
    ]);
    const cycles = folderCycles(graph);
    expect(cycles.map((c) => c.folders)).toEqual([["lib/call", "lib/explorer", "lib/platform"]]);
    expect(cycles[0]!.edges.map((e) => `${e.from} → ${e.to}`)).toEqual(["lib/call → lib/explorer", "lib/explorer → lib/platform", "lib/platform → lib/call"]);
  });

  it("finds nothing in a graph that runs one way, and names two cycles apart", () => {
    expect(
      folderCycles(
        graphOf([
          ["lib/a", "lib/b"],
          ["lib/b", "lib/c"],
          ["lib/a", "lib/c"],
        ]),
      ),
    ).toEqual([]);
    const two = folderCycles(
      graphOf([
        ["lib/a", "lib/b"],
        ["lib/b", "lib/a"],
        ["lib/c", "lib/d"],
        ["lib/d", "lib/c"],
        ["lib/b", "lib/c"],
      ]),
    );
    expect(two.map((c) => c.folders)).toEqual([
      ["lib/a", "lib/b"],
      ["lib/c", "lib/d"],
    ]);
  });

  it("counts lib/<name>/ as one node, a file directly in lib/ as its own, and app/ and components/ as importers", () => {
    expect(folderOf("lib/store/store.ts")).toBe("lib/store");
    expect(folderOf("lib/emulator/core/clock.ts")).toBe("lib/emulator");
    expect(folderOf("lib/log.ts")).toBe("lib/log.ts");
    expect(folderOf("app/api/call/[method]/route.ts")).toBe("app");
    expect(folderOf("components/explorer/results-table.tsx")).toBe("components");
    expect(folderOf("tests/unit/lint/folder-cycles.test.ts")).toBeUndefined();
  });
});

describe("the folder graph read from files", () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "folder-cycles-"));
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { moduleResolution: "bundler", module: "esnext", jsx: "react-jsx", paths: { "@/*": ["./*"] } } }),
      "lib/log.ts": `export const log = 1;\n`,
      "lib/store/index.ts": `import { log } from "@/lib/log";\nexport const store = log;\n`,
      // A type import ties the folders too, and a relative one counts as an alias does.
      "lib/access/viewer.ts": `import type { Row } from "../store/rows";\nimport { store } from "@/lib/store";\nexport const viewer = (r: Row) => store + r.n;\n`,
      "lib/store/rows.ts": `export interface Row { n: number }\n`,
      "app/page.tsx": `import { viewer } from "@/lib/access/viewer";\nexport default function Page() { return viewer({ n: 1 }); }\n`,
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("passes a project whose folders import one way, and names the file that closes a cycle", () => {
    expect(folderCycles(folderGraph(dir))).toEqual([]);
    fs.writeFileSync(path.join(dir, "lib/store/who.ts"), `export const who = async () => (await import("@/lib/access/viewer")).viewer;\n`);
    try {
      const [cycle, ...others] = folderCycles(folderGraph(dir));
      expect(others).toEqual([]);
      expect(cycle!.folders).toEqual(["lib/access", "lib/store"]);
      expect(cycle!.edges).toContainEqual({ from: "lib/store", to: "lib/access", via: ["lib/store/who.ts → @/lib/access/viewer"] });
      expect(cycle!.edges).toContainEqual({
        from: "lib/access",
        to: "lib/store",
        via: ["lib/access/viewer.ts → ../store/rows", "lib/access/viewer.ts → @/lib/store"],
      });
    } finally {
      fs.rmSync(path.join(dir, "lib/store/who.ts"));
    }
  });

  it("as npm run lint:folders: fails and prints the cycle, passes once it is gone", () => {
    const tsx = path.join(ROOT, "node_modules/.bin/tsx");
    const script = path.join(ROOT, "scripts/check-folder-cycles.ts");
    expect(execFileSync(tsx, [script, dir], { encoding: "utf8" })).toContain("No import cycle between lib/ folders.");
    fs.writeFileSync(path.join(dir, "lib/log.ts"), `import { viewer } from "@/lib/access/viewer";\nexport const log = 1;\nexport const seen = viewer;\n`);
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(tsx, [script, dir], { encoding: "utf8", stdio: "pipe" });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain("3 folders import one another: lib/access, lib/log.ts, lib/store");
    expect(failure?.stderr).toContain("lib/log.ts → lib/access: lib/log.ts → @/lib/access/viewer");
  });
});

describe("the project's own folder graph", () => {
  it("names a cycle that a file placed in lib/emulator would close, with that file", () => {
    const leak = { "lib/emulator/leak.ts": `import { findEmbeddedEmulator } from "@/lib/embedded-emulator";\nexport const leak = findEmbeddedEmulator;\n` };
    const before = folderCycles(folderGraph(ROOT)).filter((c) => c.folders.includes("lib/emulator"));
    expect(before).toEqual([]);
    const cycle = folderCycles(folderGraph(ROOT, leak)).find((c) => c.folders.includes("lib/emulator"));
    expect(cycle?.folders).toEqual(expect.arrayContaining(["lib/embedded-emulator.ts", "lib/emulator"]));
    expect(cycle && describeCycle(cycle)).toContain("lib/emulator → lib/embedded-emulator.ts: lib/emulator/leak.ts → @/lib/embedded-emulator");
  });
});
