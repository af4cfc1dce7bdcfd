/**
 * (c) First-load JavaScript of /explorer in gzip bytes, beside an empty page of the same build (the
 * not-found page: the framework, the root layout and nothing else). Each page is loaded in a fresh
 * Chromium context; every script it fetched until the network went idle is gzipped (level 6, what
 * servers commonly use) and summed.
 */
import type { BenchSuite } from "../suite";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, ORIGIN, startConsole } from "./console-server";

async function scriptBytes(browser: Browser, path: string): Promise<{ files: number; raw: number; gzip: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const bodies = new Map<string, Promise<Buffer>>();
  page.on("response", (response) => {
    if (response.request().resourceType() === "script" && response.ok()) bodies.set(response.url(), response.body());
  });
  await page.goto(`${ORIGIN}${path}`, { waitUntil: "networkidle" });
  let raw = 0;
  let gzip = 0;
  for (const body of bodies.values()) {
    const bytes = await body;
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 6 }).length;
  }
  await context.close();
  return { files: bodies.size, raw, gzip };
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

export const consoleFirstLoadSuite: BenchSuite = {
  name: "console: first-load JavaScript of /explorer vs an empty page (gzip)",
  async run() {
    await startConsole();
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    try {
      const empty = await scriptBytes(browser, "/bench-empty-page");
      const explorer = await scriptBytes(browser, "/explorer");
      console.log(`    empty page (not-found)  ${String(empty.files).padStart(3)} scripts  ${kB(empty.raw).padStart(9)} raw  ${kB(empty.gzip).padStart(9)} gzip`);
      console.log(`    /explorer               ${String(explorer.files).padStart(3)} scripts  ${kB(explorer.raw).padStart(9)} raw  ${kB(explorer.gzip).padStart(9)} gzip`);
      console.log(`    /explorer adds          ${kB(explorer.gzip - empty.gzip)} gzip  (goal ≤ 60 kB)`);
    } finally {
      await browser.close();
    }
  },
};
