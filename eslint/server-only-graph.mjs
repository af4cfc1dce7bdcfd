// The module graph as the browser bundle sees it: which of the project's modules a file loads at run time
// (type-only imports are erased, so they load nothing), and whether any of them, at any depth, declares
// itself server-only with `import "server-only"`. The lint rule in boundaries-plugin.mjs asks it about every
// import of browser code; scripts may ask it too.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".mjs"];

// `import … from "x"`, `export … from "x"` and `import "x"`, across lines; comments are dropped first.
const STATEMENT = /(?:^|[\n;])\s*(import|export)\s+(type\s+)?([^;"']*?)\s*from\s*["']([^"']+)["']|(?:^|[\n;])\s*import\s*["']([^"']+)["']/g;
const SERVER_ONLY = /(?:^|[\n;])\s*import\s*["']server-only["']/;

function stripComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Whether an import statement's bindings are all types (`import { type A, type B }` is erased too). */
function isTypeOnly(typeKeyword, bindings) {
  if (typeKeyword) return true;
  const named = /^\{([\s\S]*)\}$/.exec(bindings.trim());
  if (!named) return false;
  const names = named[1]
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith("type "));
}

export function createModuleGraph(root) {
  const files = new Map();

  function resolve(specifier, fromFile) {
    let base;
    if (specifier.startsWith("@/")) base = path.join(root, specifier.slice(2));
    else if (specifier.startsWith(".")) base = path.resolve(path.dirname(fromFile), specifier);
    else return null;
    const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, "index" + e))];
    for (const candidate of candidates) {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    }
    return null;
  }

  /** The file's own facts: whether it declares server-only, and the project files it loads at run time. */
  function read(file) {
    let facts = files.get(file);
    if (facts) return facts;
    const source = stripComments(readFileSync(file, "utf8"));
    const loads = [];
    for (const match of source.matchAll(STATEMENT)) {
      const specifier = match[4] ?? match[5];
      if (match[4] !== undefined && isTypeOnly(match[2], match[3])) continue;
      const target = resolve(specifier, file);
      if (target) loads.push(target);
    }
    facts = { serverOnly: SERVER_ONLY.test(source), loads };
    files.set(file, facts);
    return facts;
  }

  /**
   * The chain of files from `file` to the first server-only module it loads, or null when it loads none.
   * Depth-first, each file visited once per question.
   */
  function serverOnlyChain(file) {
    const seen = new Set();
    const walk = (current) => {
      if (seen.has(current)) return null;
      seen.add(current);
      const facts = read(current);
      if (facts.serverOnly) return [current];
      for (const next of facts.loads) {
        const chain = walk(next);
        if (chain) return [current, ...chain];
      }
      return null;
    };
    return walk(file);
  }

  return { resolve, read, serverOnlyChain };
}
