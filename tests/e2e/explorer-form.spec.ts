import { expect, test, type Locator, type Page, type Request } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The explorer's form as a new user meets it: a search typed key by key, links opened in a fresh tab that
 * call what they show (the catalog's verb, no limit for a method that does not page), a call put back from
 * the history without the previous call's answer beside it, a working installation chosen over one that
 * needs reinstalling, and a method name that cannot be called shown as invalid and never sent.
 */

const CONSOLE_PAGE = { headers: { "x-switchboard-request": "1" } };

test.beforeEach(async ({ request }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
  expect((await postEmulatorAdmin(request, "rate-limits", { enabled: false })).ok()).toBe(true);
});

/** "Add to workspace" and Allow. */
async function installApp(page: Page, path = "/oauth/install") {
  await page.goto(path);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** Every call the page makes to the console's /api/call, as they happen. */
/** The calls the page sends for the person: not the lists its channel, member and file pickers ask for. */
const PICKER_LISTS = new Set(["/api/call/conversations.list", "/api/call/users.list", "/api/call/files.list"]);

function recordCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/api/call/") && !PICKER_LISTS.has(path)) calls.push(r);
  });
  return calls;
}

const methodField = (page: Page) => page.getByRole("combobox", { name: "Method" });
const sendButton = (page: Page) => page.getByRole("button", { name: "Send", exact: true });

test("a search typed key by key keeps its spaces: `post message` finds chat.postMessage, `list users` finds users.list", async ({ page }) => {
  await installApp(page);
  await page.goto("/explorer");
  await expect(page.getByText("Lists all users in a Slack team.")).toBeVisible();
  const method = methodField(page);
  await method.click();
  await page.keyboard.press("Control+a");
  await method.pressSequentially("post message");
  // The field shows what was typed, and the list's best match is the method the placeholder promises.
  await expect(method).toHaveValue("post message");
  const list = page.getByRole("listbox", { name: "Web API catalog" });
  await expect(list.getByRole("option", { selected: true })).toContainText("chat.postMessage");
  // While the list is open the search is not judged as a method name.
  await expect(method).toHaveAttribute("aria-invalid", "false");

  await page.keyboard.press("Control+a");
  await method.pressSequentially("list users");
  await expect(method).toHaveValue("list users");
  await expect(list.getByRole("option", { selected: true })).toContainText("users.list");

  await page.keyboard.press("Control+a");
  await method.pressSequentially("post message");
  await page.keyboard.press("Enter");
  await expect(method).toHaveValue("chat.postMessage");
  await expect(page.getByRole("button", { name: "POST JSON" })).toHaveAttribute("aria-pressed", "true");

  // A name typed out in full and left with Tab is picked too: its transport and paging come with it.
  await page.keyboard.press("Control+a");
  await method.pressSequentially("users.list");
  await page.keyboard.press("Tab");
  await expect(method).toHaveValue("users.list");
  await expect(page.getByRole("button", { name: "GET", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("limit", { exact: true })).toHaveValue("50");
});

test("a link to chat.postMessage as a JSON POST adds no limit to the form, the body, the snippets or the link", async ({ page }) => {
  await installApp(page);
  const calls = recordCalls(page);
  await page.goto("/explorer?method=chat.postMessage&as=bot&verb=POST-json");
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
  await expect(page.getByRole("button", { name: "POST JSON" })).toHaveAttribute("aria-pressed", "true");
  // No parameter row appeared for a limit nobody gave.
  await expect(page.getByLabel("Parameter 1 name")).toHaveCount(0);
  await expect(page.getByLabel("limit", { exact: true })).toHaveCount(0);

  await page.getByLabel(/^channel/).fill("general");
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
  await sendButton(page).click();
  const sent = (await answered).request();
  expect(sent.method()).toBe("POST");
  expect(JSON.parse(sent.postData() ?? "")).toEqual({ channel: "general" });
  await expect(page.getByTestId("inspector-body")).not.toContainText("limit");
  await expect(page.getByTestId("curl-preview")).not.toContainText("limit");
  await page.getByRole("button", { name: "@slack/web-api" }).click();
  await expect(page.getByTestId("snippet-preview")).toContainText("client.chat.postMessage(");
  await expect(page.getByTestId("snippet-preview")).not.toContainText("limit");
  expect(page.url()).not.toContain("limit");
  expect(new URL(page.url()).searchParams.get("verb")).toBe("POST-json");
  expect(calls).toHaveLength(1);
});

test("a link without a verb opens chat.postMessage as the catalog's JSON POST; a verb the link states wins", async ({ page }) => {
  await installApp(page);
  await page.goto(`/explorer?method=chat.postMessage&p.channel=general&p.text=${encodeURIComponent("from a link")}`);
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
  await expect(page.getByRole("button", { name: "POST JSON" })).toHaveAttribute("aria-pressed", "true");
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
  await sendButton(page).click();
  const response = await answered;
  expect(response.request().method()).toBe("POST");
  expect(response.request().headers()["content-type"]).toContain("application/json");
  expect(JSON.parse(response.request().postData() ?? "")).toEqual({ channel: "general", text: "from a link" });
  expect(((await response.json()) as { ok: boolean }).ok).toBe(true);

  await page.goto("/explorer?method=chat.postMessage&verb=GET&p.channel=general&p.text=x");
  await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
  await expect(page.getByRole("button", { name: "GET", exact: true })).toHaveAttribute("aria-pressed", "true");
});

test("auth.test opened from a link is sent without a limit; a limit the link states is sent as a parameter", async ({ page }) => {
  // Before any install nothing is sent: the form alone shows what the link made of it.
  await page.goto("/explorer?method=auth.test");
  await expect(page.getByText("Checks authentication & identity.")).toBeVisible();
  await expect(page.getByText("Install the app into a workspace first")).toBeVisible();
  await expect(page.getByLabel("Parameter 1 name")).toHaveCount(0);

  await installApp(page);
  const first = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await page.goto("/explorer?method=auth.test");
  const call = (await first).request();
  expect(new URL(call.url()).searchParams.has("limit")).toBe(false);
  expect(call.postData() ?? "").not.toContain("limit");
  await expect(page.getByText("the whole answer is in the JSON view below")).toBeVisible();
  await expect(page.getByLabel("Parameter 1 name")).toHaveCount(0);
  await expect(page.getByTestId("curl-preview")).not.toContainText("limit");
  expect(page.url()).not.toContain("limit");

  const second = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await page.goto("/explorer?method=auth.test&p.limit=5");
  await second;
  await expect(page.getByLabel("Parameter 1 name")).toHaveValue("limit");
  await expect(page.getByLabel("Parameter 1 value")).toHaveValue("5");
});

test("putting a call back from the history clears the previous answer, inspector and snippets, updates the URL, and sends nothing until Send", async ({
  page,
}) => {
  await installApp(page);
  await page.goto("/explorer?method=auth.test");
  await expect(page.getByText("the whole answer is in the JSON view below")).toBeVisible();

  // Another call, users.list, with its table, its wire record and its snippets; then a Fetch all of it.
  const method = methodField(page);
  await method.click();
  await page.keyboard.press("Control+a");
  await method.pressSequentially("users.list");
  await page.keyboard.press("Enter");
  await sendButton(page).click();
  await expect(page.getByRole("table", { name: "Members" })).toBeVisible();
  await expect(page.getByTestId("inspector-url")).toContainText("users.list");
  await page.getByLabel("limit", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Fetch all" }).click();
  await expect(page.getByText("Every page fetched")).toBeVisible();

  const calls = recordCalls(page);
  const history = page.getByRole("list", { name: "Request history" });
  await history.getByRole("listitem").filter({ hasText: "auth.test" }).getByRole("button").click();
  await expect(method).toHaveValue("auth.test");
  await expect(page.getByRole("status").filter({ hasText: "Restored from history" })).toContainText("answered ok");
  // Nothing of users.list stays: no table, no walk, no wire record, no curl, no snippet.
  await expect(page.getByRole("table", { name: "Members" })).toHaveCount(0);
  await expect(page.getByText("Every page fetched")).toHaveCount(0);
  await expect(page.getByText("Send a request to see what the console sent upstream.")).toBeVisible();
  await expect(page.getByTestId("inspector-url")).toHaveCount(0);
  await expect(page.getByTestId("curl-preview")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy as curl" })).toBeDisabled();
  await expect(page.getByText("Pick a method and press")).toBeVisible();
  // The URL is the restored call's, with the transport it was sent with.
  await expect.poll(() => new URL(page.url()).searchParams.get("method")).toBe("auth.test");
  expect(new URL(page.url()).searchParams.get("verb")).toBe("POST-json");
  expect(page.url()).not.toContain("limit");
  // And nothing went out.
  await page.waitForTimeout(500);
  expect(calls).toHaveLength(0);

  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await sendButton(page).click();
  await answered;
  await expect(page.getByRole("status").filter({ hasText: "Restored from history" })).toHaveCount(0);
  await expect(page.getByTestId("inspector-url")).toContainText("auth.test");
});

test("the explorer calls with a working installation when another needs reinstalling", async ({ page }) => {
  // The legacy app, installed first, then proven dead: the platform forgets its token.
  await installApp(page, "/oauth/install?app=legacy");
  expect((await postEmulatorAdmin(page.request, "reset", { users: 3000 }, { keepInstallations: true })).ok()).toBe(true);
  await page.goto("/");
  const legacy = page.locator("article[data-installation]").first();
  await legacy.getByRole("group", { name: "Bot token" }).getByRole("button", { name: "Test" }).click();
  await expect(legacy.getByText("needs reinstall", { exact: true })).toBeVisible();
  // Then the console's app, which works.
  await installApp(page);

  const session = (await (await page.request.get("/api/session", CONSOLE_PAGE)).json()) as {
    installations: Array<{ id: string; state: string }>;
  };
  expect(session.installations.map((i) => i.state)).toEqual(["needs_reinstall", "active"]);
  const active = session.installations[1]!.id;

  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/auth.test");
  await page.goto("/explorer?method=auth.test");
  await expect(page.getByLabel("Installation")).toHaveValue(active);
  const response = await answered;
  expect(new URL(response.url()).searchParams.get("installation")).toBe(active);
  expect(((await response.json()) as { ok: boolean }).ok).toBe(true);

  // An installation the link names is still the one used, even one that needs reinstalling.
  await page.goto(`/explorer?method=users.list&installation=${session.installations[0]!.id}`);
  await expect(page.getByLabel("Installation")).toHaveValue(session.installations[0]!.id);
});

test("an invalid method in the link shows as invalid and sends nothing", async ({ page }) => {
  await installApp(page);
  const calls = recordCalls(page);
  await page.goto("/explorer?method=users/list");
  const method = methodField(page);
  await expect(method).toHaveValue("users/list");
  await expect(method).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Letters, digits and dots only, for example users.list.")).toBeVisible();
  await expect(page.getByLabel("Installation")).not.toHaveValue("");
  // Its border says so too, unlike the valid fields beside it.
  const border = (field: Locator) => field.evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(await border(method)).not.toBe(await border(page.getByLabel("Installation")));
  await expect(sendButton(page)).toBeDisabled();
  await page.keyboard.press("Control+Enter");
  await page.waitForTimeout(500);
  expect(calls).toHaveLength(0);
  await expect(page.getByText("Calls you make appear here")).toBeVisible();
});
