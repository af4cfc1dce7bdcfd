import { execFile, spawn, type ChildProcess } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The explorer as a request builder over the platform's method catalog: the method picker driven by the
 * keyboard, typed arguments, JSON POSTs, answers that open on what they are, missing_scope with its
 * reinstall, and Copy as curl of a JSON POST run for real.
 */

const run = promisify(execFile);

async function resetEmulator(request: APIRequestContext) {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
}

/** "Add to workspace" and Allow, optionally with other bot scopes than the console's. */
async function installApp(page: Page, scopes?: string[]) {
  await page.goto(scopes ? `/oauth/install?scope=${encodeURIComponent(scopes.join(","))}` : "/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** Moves the keyboard focus to the method field with Tab, as a person without a mouse does. */
async function tabToMethodField(page: Page) {
  const method = page.getByRole("combobox", { name: "Method" });
  for (let i = 0; i < 25; i++) {
    if (await method.evaluate((el) => el === document.activeElement)) return method;
    await page.keyboard.press("Tab");
  }
  throw new Error("Tab never reached the method field");
}

/** The explorer, once the method catalog has loaded (the method field then says what its method does). */
async function openExplorer(page: Page, query = "", summary = "Lists all users in a Slack team.") {
  await page.goto(`/explorer${query}`);
  await expect(page.getByText(summary)).toBeVisible();
}

test.beforeEach(async ({ request }) => {
  await resetEmulator(request);
});

test("finds conversations.history by typing and picks it with Enter, keyboard only", async ({ page }) => {
  await installApp(page);
  await openExplorer(page);
  await expect(page.getByRole("combobox", { name: "Method" })).toHaveValue("users.list");
  const method = await tabToMethodField(page);
  await page.keyboard.press("Control+a");
  await page.keyboard.type("history");
  await expect(method).toHaveAttribute("aria-expanded", "true");
  const list = page.getByRole("listbox", { name: "Web API catalog" });
  const active = list.getByRole("option", { selected: true });
  await expect(active).toContainText("conversations.history");
  // The highlighted method's details: its scopes against this token, and what it pages.
  await expect(page.getByText("cursor-paginated · messages")).toBeVisible();
  await expect(page.getByText("· this token has it")).toBeVisible();
  await expect(page.getByText("implements it")).toBeVisible();

  // Arrows move through the list; Escape closes it; the arrow opens it again where it was.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowUp");
  await expect(active).toContainText("conversations.history");
  await page.keyboard.press("Enter");
  await expect(method).toHaveValue("conversations.history");
  await expect(method).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByText("Fetches a conversation's history of messages and events.")).toBeVisible();
  // A paginated method has its cursor, limit and Fetch all; its arguments come from the catalog.
  await expect(page.getByLabel("cursor", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Fetch all" })).toBeVisible();
  await expect(page.getByLabel(/^channel/)).toBeVisible();

  // Typing words of a summary finds a method too; Escape on a closed list clears the field.
  await page.keyboard.press("Control+a");
  await page.keyboard.type("post message");
  await expect(list.getByRole("option", { selected: true })).toContainText("chat.postMessage");
  await page.keyboard.press("Escape");
  await expect(method).toHaveAttribute("aria-expanded", "false");
  await page.keyboard.press("Escape");
  await expect(method).toHaveValue("");
});

test("sends chat.postMessage as a JSON POST with blocks, and the message arrives in the channel", async ({ page, request }) => {
  await installApp(page);
  await openExplorer(page);
  const method = page.getByRole("combobox", { name: "Method" });
  await method.fill("chat.postMessage");
  await page
    .getByRole("listbox", { name: "Web API catalog" })
    .getByRole("option", { name: /^chat\.postMessage/ })
    .click();
  // A write with a bot token defaults to a JSON POST, and has no paging fields.
  await expect(page.getByRole("button", { name: "POST JSON" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("cursor", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Fetch all" })).toHaveCount(0);

  await page.getByLabel(/^channel/).fill("general");
  await page.getByText("More arguments").click();
  const blocks = [{ type: "section", text: { type: "mrkdwn", text: `*Deploy* finished ${Date.now()}` } }];
  const blocksField = page.getByLabel(/^blocks/);
  await blocksField.fill("[{ not json");
  await expect(blocksField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("blocks is not valid JSON")).toBeVisible();
  await blocksField.fill(JSON.stringify(blocks));
  await expect(blocksField).toHaveAttribute("aria-invalid", "false");
  await page.getByLabel(/^text/).fill("Deploy finished");

  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const response = await answered;
  expect(response.request().method()).toBe("POST");
  expect(response.request().headers()["content-type"]).toContain("application/json");
  const body = (await response.json()) as { ok: boolean; channel: string; ts: string };
  expect(body.ok).toBe(true);

  // A non-list answer opens on its JSON, with its status above.
  await expect(page.getByRole("button", { name: "JSON", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("tree", { name: "JSON response" })).toBeVisible();
  await expect(page.getByText("ok: true").first()).toBeVisible();
  // The inspector shows the JSON body that went upstream and the platform's scope headers.
  await expect(page.getByTestId("inspector-body")).toContainText('"type": "section"');
  await expect(page.getByRole("table", { name: "Response headers" })).toContainText("x-oauth-scopes");
  await expect(page.getByRole("table", { name: "Response headers" })).toContainText("chat:write");

  // The emulator's channel has the message, blocks as given.
  const state = (await (await request.get("/emulator/admin/state")).json()) as {
    channels: Array<{ id: string; messages: Array<{ ts: string; blocks?: unknown }> }>;
  };
  const posted = state.channels.find((c) => c.id === body.channel)?.messages.find((m) => m.ts === body.ts);
  expect(posted?.blocks).toEqual(blocks);
});

test("auth.test opens on its JSON, without pagination", async ({ page }) => {
  await installApp(page);
  await page.goto("/explorer?method=auth.test");
  await expect(page.getByRole("tree", { name: "JSON response" })).toBeVisible();
  await expect(page.getByRole("button", { name: "JSON", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("button", { name: "Next page" })).toHaveCount(0);
  await expect(page.getByText("end of list")).toHaveCount(0);
  await expect(page.getByText("the whole answer is in the JSON view below")).toBeVisible();
});

test("a method the token has no scope for: a warning before sending, then missing_scope with a reinstall carrying it", async ({ page }) => {
  await installApp(page, ["users:read"]);
  await openExplorer(page);
  const method = page.getByRole("combobox", { name: "Method" });
  await method.fill("chat.postMessage");
  await method.press("Enter");
  const warning = page.getByRole("note", { name: "Scope warning" });
  await expect(warning).toContainText("needs chat:write");
  await expect(warning.getByRole("link", { name: "Reinstall with chat:write" })).toHaveAttribute("href", /scope=users%3Aread%2Cchat%3Awrite/);

  await page.getByLabel(/^channel/).fill("general");
  await page.getByText("More arguments").click();
  await page.getByLabel(/^text/).fill("hello");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: "missing_scope" });
  await expect(alert).toContainText("needs chat:write");
  await expect(alert).toContainText("this bot token has users:read");
  const reinstall = alert.getByRole("link", { name: "Reinstall with chat:write" });
  const href = new URL((await reinstall.getAttribute("href")) ?? "", "http://x");
  expect(href.pathname).toBe("/oauth/install");
  expect(href.searchParams.get("scope")?.split(",")).toEqual(["users:read", "chat:write"]);

  // The reinstall grants it: the same call now gets past the scope check, to the platform's next rule (a bot
  // with chat:write but not chat:write.public posts only where it is a member: not #random, where the
  // seeded workspace did not add it), which the catalog explains.
  await reinstall.click();
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
  await openExplorer(page, "?method=chat.postMessage&verb=POST-json&p.channel=random&p.text=again", "Sends a message to a channel.");
  await expect(page.getByRole("note", { name: "Scope warning" })).toHaveCount(0);
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("note").filter({ hasText: "not_in_channel" })).toContainText("not_in_channel:");
  await expect(page.getByRole("alert").filter({ hasText: "missing_scope" })).toHaveCount(0);
});

test("an unknown method suggests the nearest catalog names", async ({ page }) => {
  await installApp(page);
  await openExplorer(page);
  await page.getByRole("combobox", { name: "Method" }).fill("users.lst");
  await expect(page.getByText("Not in the platform's catalog: sent as typed.")).toBeVisible();
  await page.getByRole("combobox", { name: "Method" }).press("Escape");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: "unknown_method" });
  await expect(alert).toBeVisible();
  await alert.getByRole("button", { name: "users.list", exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Method" })).toHaveValue("users.list");
});

/** The standalone emulator (npm run emulator), with the same seed and size as the console's embedded one. */
async function startStandaloneEmulator(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/emulator-server.ts", "--port", "0", "--users", "3000"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, EMULATOR_EVENTS_URL: "" },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}): ${output}`)));
  });
  return { url, child };
}

/** A bot token from the standalone emulator, through its consent page and oauth.v2.access. */
async function standaloneBotToken(base: string): Promise<string> {
  const apps = (await (await fetch(`${base}/admin/apps`)).json()) as {
    apps: Array<{ token_rotation_enabled: boolean; client_id: string; client_secret: string; authorize_url: string }>;
  };
  const app = apps.apps.find((a) => a.token_rotation_enabled)!;
  // Only the scope the calls need: incoming-webhook would ask the consent page for a channel too.
  const authorize = new URL(app.authorize_url);
  authorize.searchParams.set("scope", "chat:write,chat:write.public");
  authorize.searchParams.set("user_scope", "");
  const consent = await fetch(authorize);
  const action = /<form[^>]*action="([^"]+)"/.exec(await consent.text())?.[1]?.replace(/&amp;/g, "&") ?? "";
  const allowed = await fetch(new URL(action, authorize), { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
  const callback = new URL(allowed.headers.get("location") ?? "");
  const access = await fetch(`${base}/api/oauth.v2.access`, {
    method: "POST",
    body: new URLSearchParams({
      code: callback.searchParams.get("code") ?? "",
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: `${callback.origin}${callback.pathname}`,
    }),
  });
  const grant = (await access.json()) as { ok: boolean; access_token: string };
  expect(grant.ok).toBe(true);
  return grant.access_token;
}

test("Copy as curl of a JSON POST runs against the standalone emulator with TOKEN set, and gets the same answer", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const standalone = await startStandaloneEmulator();
  try {
    await installApp(page);
    const text = `curl check ${Date.now()}`;
    await page.goto(`/explorer?method=chat.postMessage&verb=POST-json&p.channel=general&p.text=${encodeURIComponent(text)}&p.unfurl_links=false`);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const consoleAnswer = (await (await answered).json()) as { ok: boolean; channel: string; message: { text: string; type: string } };
    expect(consoleAnswer.ok).toBe(true);

    await page.getByRole("button", { name: "Copy as curl", exact: true }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(curl).toMatch(/-H 'content-type: application\/json/i);
    expect(curl).toContain(`--data '{"channel":"general","text":"${text}","unfurl_links":false}'`);
    expect(curl).not.toMatch(/xox[a-z]-/);
    // The curl box wraps rather than cutting the command off.
    expect(await page.getByTestId("curl-preview").evaluate((el) => getComputedStyle(el).whiteSpace)).toBe("pre-wrap");

    // The same command, aimed at the standalone emulator (same seed, same workspace), with TOKEN exported.
    const consoleBase = /'(https?:\/\/[^']+?)\/api\/chat\.postMessage/.exec(curl)?.[1] ?? "";
    expect(consoleBase).toMatch(/\/emulator$/);
    const token = await standaloneBotToken(standalone.url);
    const { stdout } = await run("bash", ["-c", curl.replaceAll(consoleBase, standalone.url)], { env: { ...process.env, TOKEN: token } });
    const curlAnswer = JSON.parse(stdout) as typeof consoleAnswer;
    expect(curlAnswer).toMatchObject({ ok: true, channel: consoleAnswer.channel, message: { text, type: consoleAnswer.message.type } });

    // And the snippets for the official clients read the token from the environment too.
    await page.getByRole("button", { name: "@slack/web-api" }).click();
    await expect(page.getByTestId("snippet-preview")).toContainText("new WebClient(process.env.TOKEN");
    await expect(page.getByTestId("snippet-preview")).toContainText("client.chat.postMessage({");
    await page.getByRole("button", { name: "slack_sdk" }).click();
    await expect(page.getByTestId("snippet-preview")).toContainText('client.chat_postMessage(\n    channel="general",');
  } finally {
    standalone.child.kill("SIGTERM");
  }
});

/** The catalog's own chunk (a dynamic import): the only script that holds a method's summary. */
const CATALOG_TEXT = "Lists all users in a Slack team.";

/**
 * Every script the page loads goes through, except the method catalog's chunk: that one is held (answered
 * only on `release()`) or, with `fail`, refused, as a slow or broken network would.
 */
async function interceptCatalog(page: Page, fail = false) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route(/\/_next\/static\/.*\.js(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (!body.includes(CATALOG_TEXT)) return route.fulfill({ response, body });
    asked();
    if (fail) return route.abort("failed");
    await released;
    return route.fulfill({ response, body });
  });
  return { requested, release };
}

/** The JSON body of every call the explorer sends to /api/call/chat.postMessage, and what the console sent the platform for it. */
function recordPostMessages(page: Page) {
  const sent: unknown[] = [];
  const upstream: unknown[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/call/chat.postMessage") sent.push(r.postDataJSON());
  });
  page.on("response", (r) => {
    const wire = r.headers()["x-upstream-request"];
    if (new URL(r.url()).pathname === "/api/call/chat.postMessage" && wire) upstream.push(JSON.parse((JSON.parse(wire) as { body: string }).body));
  });
  return { sent, upstream };
}

const SHARED_POST = (text: string) =>
  `/explorer?method=chat.postMessage&verb=POST-json&p.channel=general&p.text=${encodeURIComponent(text)}&p.unfurl_links=false`;

test("a shared JSON POST sent before the method catalog has come waits for it, and goes with its boolean as a boolean", async ({ page }) => {
  await installApp(page);
  const catalog = await interceptCatalog(page);
  const calls = recordPostMessages(page);
  const text = `race ${Date.now()}`;
  await page.goto(SHARED_POST(text));
  // The page asks for the catalog once it runs: from here, Send and its shortcut are live, the catalog is not.
  await catalog.requested;
  const send = page.getByRole("button", { name: "Send", exact: true });
  // The quick person: a click and Ctrl+Enter before the catalog is there. Neither sends a request typed by guesswork.
  await page.locator("form[aria-label=Request] button[type=submit]").click({ force: true });
  await page.keyboard.press("Control+Enter");
  await expect.soft(page.getByRole("button", { name: "Loading method…" })).toBeDisabled();
  expect.soft(calls.sent).toEqual([]);

  catalog.release();
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
  await send.click();
  expect(((await (await answered).json()) as { ok: boolean }).ok).toBe(true);
  expect(calls.sent).toEqual([{ channel: "general", text, unfurl_links: false }]);
  // What the platform received: the emulator is the peer the console forwarded the body to.
  expect(calls.upstream).toEqual([{ channel: "general", text, unfurl_links: false }]);
});

test("when the method catalog cannot load, Send still works and says the arguments go as written", async ({ page }) => {
  await installApp(page);
  const catalog = await interceptCatalog(page, true);
  const calls = recordPostMessages(page);
  const text = `no catalog ${Date.now()}`;
  await page.goto(SHARED_POST(text));
  await catalog.requested;
  await expect(page.getByRole("status").filter({ hasText: "method catalog did not load" })).toContainText("each as a string");
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
  await page.getByRole("button", { name: "Send", exact: true }).click();
  expect(((await (await answered).json()) as { ok: boolean }).ok).toBe(true);
  expect(calls.sent).toEqual([{ channel: "general", text, unfurl_links: "false" }]);
});

test("the history keeps each answer's summary and Fetch all runs, and puts a request back with its summary", async ({ page }) => {
  await installApp(page);
  await openExplorer(page, "?method=auth.test", "Checks authentication & identity.");
  await expect(page.getByRole("tree", { name: "JSON response" })).toBeVisible();

  await page.getByRole("combobox", { name: "Method" }).fill("users.list");
  await page.getByRole("combobox", { name: "Method" }).press("Enter");
  await page.getByLabel("limit").fill("1000");
  await page.getByRole("button", { name: "Fetch all" }).click();
  await expect(page.getByText("Every page fetched")).toBeVisible();

  const history = page.getByRole("list", { name: "Request history" });
  const walk = history.getByRole("listitem").filter({ hasText: "Fetch all" });
  // 3,000 members and the app's bot user, 1,000 a page.
  await expect(walk).toContainText("Fetch all done · 3,001 members in 4 pages");
  const check = history.getByRole("listitem").filter({ hasText: "auth.test" });

  await check.getByRole("button").click();
  await expect(page.getByRole("combobox", { name: "Method" })).toHaveValue("auth.test");
  await expect(page.getByRole("status").filter({ hasText: "Restored from history" })).toContainText("answered ok");
  await walk.getByRole("button").click();
  await expect(page.getByRole("combobox", { name: "Method" })).toHaveValue("users.list");
  await expect(page.getByRole("status").filter({ hasText: "Restored from history" })).toContainText("Fetch all done · 3,001 members in 4 pages");
});
