import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCurl } from "@/lib/explorer/curl";
import { buildJavaScriptSnippet, buildPythonSnippet } from "@/lib/explorer/snippets";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";

const run = promisify(execFile);

/** A JSON POST as the console's wire record has it: token masked, body as sent. */
function jsonPost(base: string) {
  return {
    method: "POST",
    url: `${base}/api/chat.postMessage`,
    headers: { authorization: "Bearer xoxe.xoxb-…a1b2", "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({
      channel: "general",
      text: "it's shipped",
      unfurl_links: false,
      blocks: [{ type: "section", text: { type: "mrkdwn", text: "*shipped*" } }],
    }),
  };
}

let emulator: EmulatorServer;
let token: string;

beforeAll(async () => {
  emulator = await startEmulatorServer({ port: 0, users: 30, seed: "snippets" });
  const admin = (await (await fetch(`${emulator.url}/admin/apps`)).json()) as {
    apps: Array<{ token_rotation_enabled: boolean; client_id: string; client_secret: string; authorize_url: string }>;
  };
  const app = admin.apps.find((a) => a.token_rotation_enabled)!;
  // Only the scope the calls need: incoming-webhook would ask the consent page for a channel too.
  const authorize = new URL(app.authorize_url);
  authorize.searchParams.set("scope", "chat:write,chat:write.public");
  authorize.searchParams.set("user_scope", "");
  const consent = await fetch(authorize);
  const action = /<form[^>]*action="([^"]+)"/.exec(await consent.text())?.[1]?.replace(/&amp;/g, "&") ?? "";
  const allowed = await fetch(new URL(action, authorize), { method: "POST", body: new URLSearchParams({ decision: "allow" }), redirect: "manual" });
  const callback = new URL(allowed.headers.get("location") ?? "");
  const grant = (await (
    await fetch(`${emulator.url}/api/oauth.v2.access`, {
      method: "POST",
      body: new URLSearchParams({
        code: callback.searchParams.get("code") ?? "",
        client_id: app.client_id,
        client_secret: app.client_secret,
        redirect_uri: `${callback.origin}${callback.pathname}`,
      }),
    })
  ).json()) as { access_token: string };
  token = grant.access_token;
});

afterAll(async () => {
  await emulator?.close();
});

describe("the request as code", () => {
  it("curl sends a JSON body as it went, quoted for the shell, with $TOKEN", async () => {
    const curl = buildCurl(jsonPost(emulator.url));
    expect(curl).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(curl).toContain(`--data '{"channel":"general","text":"it'\\''s shipped"`);
    const { stdout } = await run("bash", ["-c", curl], { env: { ...process.env, TOKEN: token } });
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, message: { text: "it's shipped", blocks: [{ type: "section" }] } });
  });

  it("the @slack/web-api snippet runs as written, with TOKEN from the environment", async () => {
    const snippet = buildJavaScriptSnippet(jsonPost(emulator.url), { knownMethod: true });
    expect(snippet).toContain("new WebClient(process.env.TOKEN, { slackApiUrl: ");
    expect(snippet).toContain("client.chat.postMessage({");
    expect(snippet).not.toMatch(/xox/);
    // Written next to node_modules so that the import resolves as in an app.
    const dir = join(process.cwd(), "node_modules", ".cache", "snippet-test");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "snippet.mjs");
    await writeFile(file, snippet);
    const { stdout } = await run(process.execPath, [file], { env: { ...process.env, TOKEN: token } });
    expect(stdout).toContain("ok: true");
    expect(stdout).toContain("it's shipped");
  });

  it("a method outside the catalog goes through apiCall; the platform's own URL is left out", () => {
    const wire = {
      method: "POST",
      url: "https://slack.com/api/teams.secret",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1&token=xoxb-x",
    };
    const snippet = buildJavaScriptSnippet(wire, { knownMethod: false });
    expect(snippet).toContain(`new WebClient(process.env.TOKEN);`);
    expect(snippet).toContain(`client.apiCall("teams.secret", {\n  a: "1",\n})`);
    expect(snippet).not.toContain("xoxb");
  });

  it("the slack_sdk snippet keeps the verb and the encoding: json=, data= or params=", () => {
    expect(buildPythonSnippet(jsonPost("http://localhost:3000/emulator"))).toContain(
      'client = WebClient(token=os.environ["TOKEN"], base_url="http://localhost:3000/emulator/api/")',
    );
    const json = buildPythonSnippet(jsonPost("https://slack.com"));
    expect(json).toContain('client = WebClient(token=os.environ["TOKEN"])');
    expect(json).toContain('client.api_call("chat.postMessage", http_verb="POST", json={');
    expect(json).toContain('"unfurl_links": False');
    const get = buildPythonSnippet({ method: "GET", url: "https://slack.com/api/users.list?limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D", headers: {} });
    expect(get).toContain('http_verb="GET", params={\n    "limit": "50",\n    "cursor": "dXNlcjpVMDYxTkZUVDI=",\n}');
    const form = buildPythonSnippet({
      method: "POST",
      url: "https://slack.com/api/conversations.join",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "channel=C1",
    });
    expect(form).toContain('http_verb="POST", data={');
  });
});
