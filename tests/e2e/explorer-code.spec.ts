import { execFile } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { postEmulatorAdmin } from "./support/emulator-admin";

/**
 * The request as code: Copy as curl and the snippets, for requests whose record in x-upstream-request is cut
 * to fit a proxy's header buffer (a long CJK message) and for parameters named like Object's own properties;
 * and what unknown_method says when the embedded emulator lacks a method of the platform's.
 */

const run = promisify(execFile);

async function installApp(page: Page) {
  await page.goto("/oauth/install");
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/emulator") && !url.pathname.startsWith("/oauth"));
}

/** A stand-in for the platform that keeps what each request brought: where a copied command is run. */
async function recordingServer() {
  const received: Array<{ method: string; url: string; contentType: string; body: string }> = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method ?? "",
        url: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
      });
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Runs a copied command with its upstream swapped for the recording server, TOKEN exported. */
async function runAgainst(curl: string, target: string) {
  const base = /'(https?:\/\/[^']+?)\/api\//.exec(curl)?.[1] ?? "";
  expect(base).toMatch(/\/emulator$/);
  await run("bash", ["-c", curl.replaceAll(base, target)], { env: { ...process.env, TOKEN: "test-token" } });
}

async function copyCurl(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Copy as curl", exact: true }).click();
  await expect(page.getByRole("button", { name: "Copy as curl", exact: true })).toHaveText("Copied ✓");
  return page.evaluate(() => navigator.clipboard.readText());
}

test.beforeEach(async ({ request, context }) => {
  expect((await postEmulatorAdmin(request, "reset", { users: 3000 })).ok()).toBe(true);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
});

const CJK = "漢字かな交じり文の試験です。".repeat(50).slice(0, 700);

test("Copy as curl of a 700-character CJK message is the whole message, though the console's record of it is cut", async ({ page }) => {
  const server = await recordingServer();
  try {
    await installApp(page);
    await page.goto(`/explorer?method=chat.postMessage&verb=POST-json&p.channel=general&p.text=${encodeURIComponent(CJK)}`);
    await expect(page.getByText("Sends a message to a channel.")).toBeVisible();
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/call/chat.postMessage");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const response = await answered;
    expect(((await response.json()) as { ok: boolean }).ok).toBe(true);
    const header = (await response.allHeaders())["x-upstream-request"] ?? "";
    expect(header.length).toBeLessThanOrEqual(2048);
    expect(JSON.parse(header)).toHaveProperty("cut.body");

    const curl = await copyCurl(page);
    expect(curl).toContain(`--data '{"channel":"general","text":"${CJK}"}'`);
    expect(curl).not.toMatch(/…\(\d+ characters\)|\\u[0-9a-f]{4}/);
    await expect(page.getByTestId("curl-preview")).toHaveText(curl);
    await expect(page.getByTestId("inspector-body")).toContainText(CJK);
    await runAgainst(curl, server.url);
    expect(server.received).toEqual([
      { method: "POST", url: "/api/chat.postMessage", contentType: "application/json; charset=utf-8", body: JSON.stringify({ channel: "general", text: CJK }) },
    ]);

    await page.getByRole("button", { name: "@slack/web-api" }).click();
    await expect(page.getByTestId("snippet-preview")).toContainText(`text: "${CJK}"`);
    await page.getByRole("button", { name: "slack_sdk" }).click();
    await expect(page.getByTestId("snippet-preview")).toContainText(`client.chat_postMessage(\n    channel="general",\n    text="${CJK}",\n)`);
  } finally {
    await server.close();
  }
});

test("a parameter named constructor keeps its value in Copy as curl, in the query and in a form body", async ({ page }) => {
  const server = await recordingServer();
  try {
    await installApp(page);
    await page.goto("/explorer?method=users.list&p.limit=5&p.constructor=kept&p.toString=also");
    await expect(page.getByText("Lists all users in a Slack team.")).toBeVisible();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByTestId("inspector-url")).toContainText("constructor=kept");
    const get = await copyCurl(page);
    expect(get).toMatch(/\/api\/users\.list\?limit=5&constructor=kept&toString=also'/);
    expect(get).not.toContain("$undefined");
    await runAgainst(get, server.url);

    await page.goto("/explorer?method=users.list&verb=POST&p.limit=5&p.constructor=kept&p.valueOf=v");
    await expect(page.getByText("Lists all users in a Slack team.")).toBeVisible();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByTestId("inspector-body")).toContainText("constructor=kept");
    const post = await copyCurl(page);
    expect(post).toContain(`--data 'limit=5&constructor=kept&valueOf=v'`);
    expect(post).not.toContain("--data-urlencode");
    await runAgainst(post, server.url);
    expect(server.received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "GET", url: "/api/users.list?limit=5&constructor=kept&toString=also", body: "" },
      { method: "POST", url: "/api/users.list", body: "limit=5&constructor=kept&valueOf=v" },
    ]);
  } finally {
    await server.close();
  }
});

test("unknown_method for a platform method the emulator lacks says so, and offers only methods it implements", async ({ page }) => {
  await installApp(page);
  await page.goto("/explorer?method=chat.meMessage&verb=POST&p.channel=general&p.text=hi");
  await expect(page.getByText("Share a me message into a channel.")).toBeVisible();
  await page.getByRole("button", { name: "Send", exact: true }).click();
  const alert = page.getByRole("alert").filter({ hasText: "unknown_method" });
  await expect(alert).toContainText(
    "the embedded emulator does not implement chat.meMessage, a method of the platform's catalog that the platform itself answers",
  );
  await expect(alert.getByRole("button")).toHaveText(["chat.postMessage"]);
  await alert.getByRole("button", { name: "chat.postMessage" }).click();
  await expect(page.getByRole("combobox", { name: "Method" })).toHaveValue("chat.postMessage");
});
