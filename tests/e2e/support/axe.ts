import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";

const axeSource = readFileSync(join(process.cwd(), "node_modules", "axe-core", "axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** The page's serious and critical WCAG 2.1 A and AA violations, by axe-core (as a11y.spec.ts checks every console page). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // A change of scheme (emulateMedia) or a hover fades every element with a colour transition for 150 ms: axe must
  // read the colours they end on, not one between (a loaded CI machine ran it mid-fade: ten buttons "failed" in
  // dark). Transitions are turned off while it reads, which ends any running one at its end value (waiting for them
  // to finish hung once: not every transition's `finished` settles in a headless page).
  const still = await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; animation: none !important; }" });
  let violations: Violation[];
  try {
    await page.addScriptTag({ content: axeSource });
    violations = (await page.evaluate(
      `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] }).then((r) => r.violations)`,
    )) as Violation[];
  } finally {
    await still.evaluate((style) => (style as Element).remove());
  }
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(" ")}`));
}
