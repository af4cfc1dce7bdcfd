/**
 * Summarises a V8 CPU profile (bench/cpu-probe.mjs writes one per server): self time by package or source
 * folder, and the TOP functions by self time, each with its share of the samples.
 *   npx tsx bench/cpu-profile-top.ts /tmp/probe/server-1234.cpuprofile
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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

/** Where a frame's code lives: a package of node_modules, a folder of the console, node's own, or V8's. */
function placeOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node:internal";
  const chunk = /\.next[^/]*\/server\/(chunks|app)\//.exec(url);
  if (chunk) return `.next server ${chunk[1]} (bundled: the console's code and what it bundles)`;
  return (
    url
      .replace(/^file:\/\//, "")
      .split("/")
      .slice(-2, -1)[0] ?? url
  );
}

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error("usage: tsx bench/cpu-profile-top.ts <file.cpuprofile>");
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const key = `${functionName || "(anonymous)"}  ${url ? `${url.split("/").slice(-3).join("/")}:${lineNumber + 1}` : ""}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
  // Who a sample's time is for: the nearest frame of the console's own bundle above it (a write's or a
  // collection's caller), else the nearest named frame of a package.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const ownerOf = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (/\/server\/(chunks|app)\//.test(url) && !/node_modules_next|\[turbopack\]|_0boy3s/.test(url)) {
        return `${functionName || "(anonymous)"}  ${url.split("/").slice(-1)[0]}:${lineNumber + 1}`;
      }
    }
    return "(no console frame: Next.js, node or V8 alone)";
  };
  const byOwner = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName === "(idle)") continue;
    const owner = ownerOf(id);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  }
  console.log(`${path}: ${(total / 1e6).toFixed(1)} s sampled over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`);
  console.log("\nself time by place:");
  for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(us)}  ${place}`);
  console.log(`\ntop ${TOP} of the console's own frames, with the time of everything they called (idle left out):`);
  for (const [owner, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(us)}  ${owner}`);
  console.log(`\ntop ${TOP} functions by self time:`);
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${pct(us)}  ${fn}`);
}

main();
