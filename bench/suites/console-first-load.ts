/**
 * (c) First-load JavaScript of /explorer and of / in gzip bytes, beside an empty page of the same build (the
 * not-found page: the framework and the root layout, nothing else). First-load JavaScript is, as Next.js
 * counts it, every script the page's HTML loads to start: each is fetched from the production server,
 * gzipped (level 6, what servers commonly use) and summed. Loading the pages in a browser would not do:
 * once idle, the router prefetches the pages the navigation links to, the explorer's chunks included.
 */
import { gzipSync } from "node:zlib";
import { expectOk } from "../http";
import type { BenchSuite } from "../suite";
import { ORIGIN, startConsole } from "./console-server";

async function firstLoadScripts(path: string): Promise<{ files: string[]; raw: number; gzip: number }> {
  // The empty page is the not-found page: a 404 is what it should answer.
  const page = await fetch(`${ORIGIN}${path}`);
  if (!page.ok && page.status !== 404) await expectOk(page, `GET ${path}`);
  const html = await page.text();
  const files = [...new Set([...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!))];
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const response = await expectOk(await fetch(new URL(file, ORIGIN)), file);
    const bytes = Buffer.from(await response.arrayBuffer());
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 6 }).length;
  }
  return { files, raw, gzip };
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** A string that only the method catalog's module holds: a script with it carries the catalog. */
const CATALOG_MARKER = "Fetches a conversation's history of messages and events.";

async function carriesCatalog(files: string[]): Promise<boolean> {
  for (const file of files) {
    const text = await (await fetch(new URL(file, ORIGIN))).text();
    if (text.includes(CATALOG_MARKER)) return true;
  }
  return false;
}

export const consoleFirstLoadSuite: BenchSuite = {
  name: "console: first-load JavaScript of /explorer and / vs an empty page (gzip)",
  async run() {
    await startConsole();
    const empty = await firstLoadScripts("/bench-empty-page");
    const explorer = await firstLoadScripts("/explorer");
    const home = await firstLoadScripts("/");
    const own = explorer.files.filter((f) => !empty.files.includes(f));
    const homeOwn = home.files.filter((f) => !empty.files.includes(f));
    console.log(
      `    empty page (not-found)  ${String(empty.files.length).padStart(3)} scripts  ${kB(empty.raw).padStart(9)} raw  ${kB(empty.gzip).padStart(9)} gzip`,
    );
    console.log(
      `    /explorer               ${String(explorer.files.length).padStart(3)} scripts  ${kB(explorer.raw).padStart(9)} raw  ${kB(explorer.gzip).padStart(9)} gzip`,
    );
    console.log(
      `    /                       ${String(home.files.length).padStart(3)} scripts  ${kB(home.raw).padStart(9)} raw  ${kB(home.gzip).padStart(9)} gzip`,
    );
    console.log(`    /explorer adds          ${kB(explorer.gzip - empty.gzip)} gzip in ${own.length} scripts of its own  (goal ≤ 60 kB)`);
    console.log(`    / adds                  ${kB(home.gzip - empty.gzip)} gzip in ${homeOwn.length} scripts of its own`);
    // The catalog is its own chunk, loaded when the explorer asks for it: in no page's first load.
    const leaks = [(await carriesCatalog(explorer.files)) && "/explorer", (await carriesCatalog(home.files)) && "/"].filter(Boolean);
    console.log(`    method catalog in first-load scripts: ${leaks.length === 0 ? "none (loaded on demand)" : leaks.join(", ")}`);
    if (leaks.length > 0) throw new Error(`The method catalog is in the first-load JavaScript of ${leaks.join(", ")}.`);
  },
};
