import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Every page of the console, checked with axe-core (WCAG 2.1 A and AA rules) in light and in dark mode, with
 * an installation and some of everything on screen. A serious or critical violation fails the test.
 */

const axeSource = readFileSync(join(process.cwd(), "node_modules", "axe-core", "axe.min.js"), "utf8");

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] }).then((r) => r.violations)`,
  )) as Violation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target.join(" ")}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, " ")})` : ""}`),
    );
}

async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** Each page, with what a person would have on it after using it a little. */
const PAGES: Array<{ name: string; open(page: Page): Promise<void> }> = [
  { name: "installations", open: async (page) => void (await page.goto("/")) },
  {
    name: "explorer with a list, the picker open and an error answer",
    open: async (page) => {
      await page.goto("/explorer?method=users.list&p.limit=20");
      await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
      await page.getByRole("combobox", { name: "Method" }).fill("chat.post");
      await expect(page.getByRole("listbox", { name: "Web API catalog" })).toBeVisible();
    },
  },
  {
    name: "explorer with a JSON answer",
    open: async (page) => {
      await page.goto("/explorer?method=conversations.info&p.channel=CNOPE");
      await page.getByRole("button", { name: "Send", exact: true }).click();
      await expect(page.getByRole("tree", { name: "JSON response" })).toBeVisible();
    },
  },
  { name: "webhooks", open: async (page) => void (await page.goto("/webhooks")) },
  {
    name: "events",
    open: async (page) => {
      await page.goto("/events");
      await expect(page.getByRole("status", { name: "Feed connection" })).toContainText("Listening");
    },
  },
  { name: "app settings", open: async (page) => void (await page.goto("/settings")) },
  { name: "API keys", open: async (page) => void (await page.goto("/api-keys")) },
  { name: "OAuth callback error", open: async (page) => void (await page.goto("/oauth/callback?error=access_denied&state=forged")) },
];

test.beforeAll(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
});

for (const scheme of ["light", "dark"] as const) {
  test(`no serious or critical axe violation on any page, ${scheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await installApp(page);
    const found: string[] = [];
    for (const { name, open } of PAGES) {
      await open(page);
      // The theme follows the system setting: the page's own colours say which one it is in.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(scheme);
      found.push(...(await seriousViolations(page)).map((v) => `${name}: ${v}`));
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}

test("the theme switch overrides the system setting and is kept across pages and reloads", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  const theme = page.getByRole("group", { name: "Theme" });
  await theme.getByRole("button", { name: "Dark" }).click();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
  await page.goto("/explorer");
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
  await expect(page.getByRole("group", { name: "Theme" }).getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("group", { name: "Theme" }).getByRole("button", { name: "System" }).click();
  await page.reload();
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("light");
});

test("a skip link leads past the navigation, which marks the current page", async ({ page }) => {
  await page.goto("/explorer");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API explorer" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Installations" })).not.toHaveAttribute("aria-current", "page");
});
