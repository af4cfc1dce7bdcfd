// npm run lint:folders: no import cycle between lib/'s folders (issue 38). madge and import-x/no-cycle find
// cycles between files; two folders can still import each other through files that never meet (lib/call's
// fetch-all importing lib/explorer while an explorer file imports lib/call's header), and then neither
// folder can be read, moved or tested without the other. This check lifts every import of lib/, app/ and
// components/ to the folders it joins and names each set of folders that reach one another.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Where the check reads imports from: lib/'s folders are the nodes, app/ and components/ import them. */
const SOURCE_DIRS = ["lib", "app", "components"];
const SOURCE_FILE = /\.(ts|tsx|mts)$/;

/** For each folder, the folders it imports, each with the imports that join them ("file → specifier"). */
export type FolderGraph = Map<string, Map<string, string[]>>;

export interface FolderCycle {
  /** The folders that reach one another through their imports, sorted. */
  folders: string[];
  /** The imports between them: which folder imports which, and through which files. */
  edges: { from: string; to: string; via: string[] }[];
}

/**
 * The node a file belongs to: lib/<name>/ is one folder (lib/emulator included), a file directly in lib/ is
 * a node of its own, and app/ and components/ are one node each. Anything else is not in the graph.
 */
export function folderOf(file: string): string | undefined {
  const parts = file.split(/[\\/]/);
  if (parts[0] === "lib") return parts.length === 2 ? file : `lib/${parts[1]}`;
  if (parts[0] === "app" || parts[0] === "components") return parts[0];
  return undefined;
}

function sourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (SOURCE_FILE.test(entry.name)) found.push(relative);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return found;
}

/** The project's own compiler options (its `@/` paths, its module resolution), as tsc reads them. */
function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(root, "tsconfig.json");
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(`Cannot read ${configPath}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath).options;
}

/**
 * The folder graph of the project at `root`, from every import (type-only ones too: a type import ties a
 * folder to another as much as a value does), re-export and dynamic import, resolved as tsc resolves it.
 * `extraFiles` (relative path → source) are read as if they were on disk: what a test places to close a cycle.
 */
export function folderGraph(root: string, extraFiles: Record<string, string> = {}): FolderGraph {
  const options = compilerOptions(root);
  const graph: FolderGraph = new Map();
  const files = new Set([...sourceFiles(root), ...Object.keys(extraFiles)]);
  for (const file of files) {
    const from = folderOf(file);
    if (!from) continue;
    const text = extraFiles[file] ?? fs.readFileSync(path.join(root, file), "utf8");
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      const resolved = ts.resolveModuleName(specifier, path.join(root, file), options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.relative(root, resolved.resolvedFileName).split(path.sep).join("/");
      const to = folderOf(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${file} → ${specifier}`]);
    }
  }
  return graph;
}

/** The sets of folders that reach one another (the graph's strongly connected components of two or more, by Tarjan's algorithm). */
export function folderCycles(graph: FolderGraph): FolderCycle[] {
  const nodes = new Set<string>(graph.keys());
  for (const targets of graph.values()) for (const to of targets.keys()) nodes.add(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;

  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  };
  for (const node of [...nodes].sort()) if (!index.has(node)) visit(node);

  return components
    .sort((a, b) => a[0]!.localeCompare(b[0]!))
    .map((folders) => ({
      folders,
      edges: folders.flatMap((from) =>
        [...(graph.get(from) ?? new Map<string, string[]>())]
          .filter(([to]) => folders.includes(to))
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([to, via]) => ({ from, to, via })),
      ),
    }));
}

/** What the check prints for a cycle: its folders, then each import between them (the first few files of each). */
export function describeCycle(cycle: FolderCycle, filesPerEdge = 3): string {
  const lines = [`${cycle.folders.length} folders import one another: ${cycle.folders.join(", ")}`];
  for (const { from, to, via } of cycle.edges) {
    const more = via.length > filesPerEdge ? ` (and ${via.length - filesPerEdge} more)` : "";
    lines.push(`  ${from} → ${to}: ${via.slice(0, filesPerEdge).join("; ")}${more}`);
  }
  return lines.join("\n");
}

function main(root: string): number {
  const cycles = folderCycles(folderGraph(root));
  if (cycles.length === 0) {
    console.log("No import cycle between lib/ folders.");
    return 0;
  }
  console.error(`Import cycles between folders (${cycles.length}): move the shared part down, or pass it in as a parameter.\n`);
  for (const cycle of cycles) console.error(`${describeCycle(cycle)}\n`);
  return 1;
}

// Run as a script (npm run lint:folders [root]); imported by its test, it does nothing.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.exitCode = main(path.resolve(process.argv[2] ?? "."));
}
