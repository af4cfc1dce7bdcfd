/**
 * Summarises a V8 CPU profile (bench/cpu-probe.mjs writes one per server): self time by package or source
 * folder, the console's own frames with the time of what they called, and the TOP functions by self time,
 * each with its share of the samples. The production build's frames are named by their source (the build's
 * source maps, read beside each chunk): `lib/call/history-answer.ts maskString`, not `l  lib_0v_….js:1`.
 * FROM_S and TO_S (seconds from the profile's start) keep only the samples of that window, e.g. the seconds
 * after a soak's clock jump.
 *   npx tsx bench/cpu-profile-top.ts /tmp/probe/server-1234.cpuprofile
 *   FROM_S=30 TO_S=38 npx tsx bench/cpu-profile-top.ts /tmp/probe/server-1234.cpuprofile
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const TOP = Number(process.env.TOP ?? 25);
const FROM_S = Number(process.env.FROM_S ?? 0);
const TO_S = Number(process.env.TO_S ?? Infinity);

const maps = new Map<string, SourceMap | null>();
/** The frame's place in the sources the build was made from, when its chunk has a source map. */
function original(frame: CallFrame): { source: string; name: string } | undefined {
  if (!/\/server\/(chunks|app)\//.test(frame.url)) return undefined;
  const file = frame.url.replace(/^file:\/\//, "");
  if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8"))) : null);
  const entry = maps.get(file)?.findEntry(frame.lineNumber, frame.columnNumber) as
    { originalSource?: string; originalLine?: number; name?: string } | undefined;
  if (!entry?.originalSource) return undefined;
  const source = entry.originalSource.replace(/^(\.\.\/)+/, "").replace(/^\[project\]\//, "");
  return { source: `${source}:${(entry.originalLine ?? 0) + 1}`, name: entry.name ?? frame.functionName };
}

const isConsoleSource = (source: string) => /^(lib|app|components|instrumentation)/.test(source) && !source.includes("node_modules");

/** Where a frame's code lives: a package of node_modules, a folder of the console, node's own, or V8's. */
function placeOf(frame: CallFrame): string {
  const { url, functionName: name } = frame;
  if (!url) return name.startsWith("(") ? name : "(native)";
  const mapped = original(frame);
  if (mapped) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(mapped.source)?.[1];
    if (pkg) return `${pkg} (bundled)`;
    return isConsoleSource(mapped.source) ? mapped.source.split("/").slice(0, -1).join("/") : `bundled: ${mapped.source.split("/")[0]}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node:internal";
  const chunk = /\.next[^/]*\/server\/(chunks|app)\//.exec(url);
  if (chunk) return `.next server ${chunk[1]} (bundled, no source map)`;
  return (
    url
      .replace(/^file:\/\//, "")
      .split("/")
      .slice(-2, -1)[0] ?? url
  );
}

function nameOf(frame: CallFrame): string {
  const mapped = original(frame);
  if (mapped) return `${mapped.name || "(anonymous)"}  ${mapped.source}`;
  return `${frame.functionName || "(anonymous)"}  ${frame.url ? `${frame.url.split("/").slice(-3).join("/")}:${frame.lineNumber + 1}` : ""}`;
}

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error("usage: tsx bench/cpu-profile-top.ts <file.cpuprofile>");
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at / 1e6 < FROM_S || at / 1e6 >= TO_S) return;
    self.set(id, (self.get(id) ?? 0) + delta);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    byPlace.set(placeOf(frame), (byPlace.get(placeOf(frame)) ?? 0) + us);
    byFunction.set(nameOf(frame), (byFunction.get(nameOf(frame)) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  // The time of every console frame with what it called (each sample counted once per frame on its stack).
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const mapped = original(byId.get(node)!.callFrame);
      if (!mapped || !isConsoleSource(mapped.source)) continue;
      const key = `${mapped.name || "(anonymous)"}  ${mapped.source.replace(/:\d+$/, "")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const window = FROM_S > 0 || TO_S < Infinity ? ` (window ${FROM_S} to ${TO_S === Infinity ? "the end" : TO_S} s)` : "";
  console.log(`${path}: ${(total / 1e6).toFixed(1)} s sampled over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s${window}`);
  console.log("\nself time by place:");
  for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${place}`);
  console.log(`\ntop ${TOP} of the console's own functions, with the time of everything they called (idle left out):`);
  for (const [fn, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(us)}  ${fn}`);
  console.log(`\ntop ${TOP} functions by self time:`);
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(us)}  ${fn}`);
}

main();
