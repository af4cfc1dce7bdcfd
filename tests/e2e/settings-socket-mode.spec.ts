import { expect, test, type Page } from "@playwright/test";
import WebSocket from "ws";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * Issues 39 and 40 in the console, as an admin uses it (no sign-in: the operator is the admin): an
 * app-level token generated on the settings page is shown once and masked after a reload; Socket Mode is
 * switched on there; a bare `ws` client opens a connection with that token (apps.connections.open against
 * the embedded emulator), which the page lists and disconnects with refresh_requested; the events page then
 * shows the emulator's record of a member's message delivered over that app's connection.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads any field and asserts it

const SCREENSHOTS = "test-results/screenshots/settings-socket-mode";

async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-${scheme}-${width}.png`, fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** A bare Socket Mode client: every frame it gets, each envelope acked. */
function connect(url: string): { socket: WebSocket; frames: Json[] } {
  const frames: Json[] = [];
  const socket = new WebSocket(url);
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString()) as Json;
    frames.push(frame);
    if (frame.envelope_id) socket.send(JSON.stringify({ envelope_id: frame.envelope_id }));
  });
  return { socket, frames };
}

test.afterEach(async ({ request }) => {
  await postEmulatorAdmin(request, "reset", {});
});

test("an admin makes an app-level token, turns Socket Mode on, watches and disconnects a connection, and sees its delivery on the events page", async ({
  page,
  request,
}) => {
  expect((await postEmulatorAdmin(request, "reset", {})).ok()).toBe(true);
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await expect(page).toHaveURL(/\/\?installed=/);

  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: /Switchboard Rotation/ })).toBeVisible();
  const tokens = page.locator("section").filter({ has: page.getByRole("heading", { name: "App-level tokens" }) });
  await expect(tokens).toContainText("No app-level tokens yet.");
  await tokens.getByLabel("Token name").pressSequentially("socket");
  await expect(tokens.getByRole("checkbox", { name: "connections:write" })).toBeChecked();
  await tokens.getByRole("button", { name: "Generate token" }).click();
  const shown = tokens.getByTestId("new-app-token");
  await expect(shown).toHaveText(/^xapp-1-/);
  const token = (await shown.textContent())!.trim();
  await expect(tokens.getByTestId("app-token-masked")).toHaveText(`xapp-1-…${token.slice(-4)}`);
  await shoot(page, "token-generated");

  // Shown once: after a reload only the masked form, and the value is nowhere on the page.
  await page.reload();
  await expect(tokens.getByTestId("app-token-masked")).toHaveText(`xapp-1-…${token.slice(-4)}`);
  await expect(tokens.getByTestId("new-app-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  const socketMode = page.locator("section").filter({ has: page.getByRole("heading", { name: "Socket Mode", exact: true }) });
  await expect(socketMode.getByTestId("socket-mode-state")).toContainText("HTTP");
  await socketMode.getByRole("switch", { name: "Turn Socket Mode on" }).click();
  await expect(socketMode.getByTestId("socket-mode-state")).toContainText("Socket Mode");
  await expect(socketMode.getByRole("switch", { name: "Turn Socket Mode off" })).toHaveAttribute("aria-checked", "true");

  const opened = (await (await request.post("/emulator/api/apps.connections.open", { headers: { authorization: `Bearer ${token}` } })).json()) as Json;
  expect(opened).toMatchObject({ ok: true, url: expect.stringMatching(/^ws:\/\//) });
  const first = connect(opened.url as string);
  await expect.poll(() => first.frames.find((f) => f.type === "hello")).toBeTruthy();
  await expect(socketMode.getByTestId("connection-count")).toContainText("1 open connection");
  await shoot(page, "connected");
  // The panel itself on a phone, dark, where a wrapped control would show.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 900 });
  await socketMode.screenshot({ path: `${SCREENSHOTS}/socket-mode-panel-dark-390.png` });
  await tokens.screenshot({ path: `${SCREENSHOTS}/tokens-panel-dark-390.png` });
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1366, height: 900 });

  await expect(socketMode.getByLabel("Disconnect reason")).toHaveValue("refresh_requested");
  await socketMode.getByRole("button", { name: /^Disconnect / }).click();
  await expect.poll(() => first.frames.find((f) => f.type === "disconnect")).toMatchObject({ reason: "refresh_requested" });
  await expect(socketMode.getByText("disconnect sent")).toBeVisible();
  first.socket.close();

  // The app reconnects, as a client told refresh_requested does; a member's message then reaches it.
  const again = (await (await request.post("/emulator/api/apps.connections.open", { headers: { authorization: `Bearer ${token}` } })).json()) as Json;
  const second = connect(again.url as string);
  await expect.poll(() => second.frames.find((f) => f.type === "hello")).toBeTruthy();
  const apps = ((await (await request.get("/emulator/admin/apps")).json()) as Json).apps as Json[];
  const app = apps.find((a) => a.name === "Switchboard Rotation")!;
  const mention = (await (await postEmulatorAdmin(request, "mention", { app_id: app.app_id, text: "hello over the socket" })).json()) as Json;
  expect(mention.event_ids).toHaveLength(1);
  await expect.poll(() => second.frames.find((f) => f.type === "events_api")).toMatchObject({ payload: { event_id: mention.event_ids[0] } });

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events" }).click();
  const records = page.getByRole("list", { name: "Emulator records" });
  const card = records.getByRole("article", { name: `app_mention event ${mention.event_ids[0]}` });
  await expect(card).toContainText("Socket Mode");
  await expect(card).toContainText("delivered");
  await card.getByText("Payload").click();
  await expect(card.getByLabel("Record payload")).toContainText("hello over the socket");
  await shoot(page, "events-records");
  await page.setViewportSize({ width: 390, height: 900 });
  await card.screenshot({ path: `${SCREENSHOTS}/record-card-390.png` });
  second.socket.close();
});
