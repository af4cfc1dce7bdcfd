import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The Workspace page's live stream, refused and taken again. The console holds one viewer to a few live
 * Workspace tabs (lib/workspace-page/relay.ts, WORKSPACE_STREAM_BOUNDS): 4 for a signed-in person, and
 * without sign-in (as this suite's server runs) 8 for one address. Past that, a tab says why its updates are
 * paused instead of looking live; once another tab closes it goes live within the route's Retry-After (15 s)
 * and reads again what it missed meanwhile.
 */

const LIVE = "Live updates on.";
const PAUSED = "Live updates paused: you have the most Workspace tabs open that one person may — close one.";

/** Without sign-in every tab of this machine counts against one address: 8 (perAddress). */
const TABS_PER_ADDRESS = 8;

async function openLiveTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto("/workspace");
  await expect(page.getByRole("heading", { name: "#general" })).toBeVisible();
  await expect(page.getByText(LIVE)).toBeAttached();
  return page;
}

test("a tab past the bound says its live updates are paused, and goes live again once another tab closes", async ({ browser, request }) => {
  test.setTimeout(120_000);
  await postEmulatorAdmin(request, "reset", {});
  // Two browsers of the same machine, 4 tabs each: a browser opens only 6 connections to one host, and each
  // live tab holds one.
  const first = await browser.newContext();
  const second = await browser.newContext();
  try {
    const tabs: Page[] = [];
    for (let i = 0; i < TABS_PER_ADDRESS; i++) tabs.push(await openLiveTab(i < TABS_PER_ADDRESS / 2 ? first : second));

    // One tab too many, in the first browser: it opens, shows the workspace, and says why nothing arrives live.
    const extra = await first.newPage();
    await extra.goto("/workspace");
    await expect(extra.getByRole("heading", { name: "#general" })).toBeVisible();
    await expect(extra.getByText(PAUSED)).toBeVisible();
    await expect(extra.getByText(LIVE)).toHaveCount(0);

    // Meanwhile someone posts: the paused tab does not see it (nothing streams to it).
    await postEmulatorAdmin(request, "act/post", { text: "posted while paused" });
    await expect(tabs[0]!.getByText("posted while paused")).toBeVisible();
    await expect(extra.getByText("posted while paused")).toHaveCount(0);

    // A tab closes: within the Retry-After (15 s, jittered by up to a quarter) the extra one is live, and
    // has read again what it missed.
    await tabs[0]!.close();
    await expect(extra.getByText(LIVE)).toBeAttached({ timeout: 25_000 });
    await expect(extra.getByText(PAUSED)).toHaveCount(0);
    await expect(extra.getByText("posted while paused")).toBeVisible();
  } finally {
    await first.close();
    await second.close();
  }
});
