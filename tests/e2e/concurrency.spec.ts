import { expect, test } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/** The header the console's own pages send (lib/console-request.ts); the API refuses reads that say nothing of their origin. */
const CONSOLE_PAGE = { headers: { "x-switchboard-request": "1" } };

/**
 * Single-flight refresh through the running console: with the emulator's clock moved past the tokens'
 * expiry, fifty concurrent calls on one session all succeed, and the platform served one refresh.
 */

interface AdminState {
  installations: { id: string; app_id: string; refresh_grants: number; refresh_requests: number }[];
}

test("fifty concurrent auth.test calls after expiry: all ok, exactly one refresh grant and one refresh request upstream", async ({ page }) => {
  expect((await postEmulatorAdmin(page.request, "reset", {})).ok()).toBe(true);
  await page.goto("/");
  await page.getByRole("link", { name: "Add to workspace" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page.locator("article[data-installation]")).toHaveCount(1);

  const session = (await (await page.request.get("/api/session", CONSOLE_PAGE)).json()) as { installations: { id: string; app: { id: string } }[] };
  const installation = session.installations[0];
  expect(installation).toBeDefined();

  const clock = await postEmulatorAdmin(page.request, "clock", { advance_s: 13 * 3600 });
  expect(clock.ok()).toBe(true);

  const responses = await Promise.all(
    Array.from({ length: 50 }, () => page.request.get(`/api/call/auth.test?installation=${installation?.id}&token=bot`, CONSOLE_PAGE)),
  );
  const bodies = (await Promise.all(responses.map((r) => r.json()))) as { ok: boolean; error?: string }[];
  expect(responses.map((r) => r.status())).toEqual(Array(50).fill(200));
  expect(bodies.filter((b) => !b.ok)).toEqual([]);
  expect(responses.some((r) => r.headers()["x-token-refreshed"] === "1")).toBe(true);

  const state = (await (await page.request.get("/emulator/admin/state")).json()) as AdminState;
  const upstream = state.installations.filter((i) => i.app_id === installation?.app.id);
  expect(upstream).toHaveLength(1);
  expect(upstream[0]?.refresh_grants).toBe(1);
  // A second refresh within the grace period would be answered with the same pair and count no new
  // grant; counting the requests is what shows the console refreshed only once.
  expect(upstream[0]?.refresh_requests).toBe(1);

  // The console shows the refreshed token, fresh for 12 hours by the server's clock.
  await page.reload();
  await expect(page.getByRole("group", { name: "Bot token" }).getByText(/expires in 1[12]h/)).toBeVisible();
});
