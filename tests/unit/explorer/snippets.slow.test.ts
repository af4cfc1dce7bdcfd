import { execFile, spawn } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findMethod } from "@/lib/explorer/catalog";
import { METHOD_CATALOG } from "@/lib/explorer/catalog/methods.generated";
import type { WireRecord } from "@/lib/platform/wire-header";
import { buildCurl, type RequestCode } from "@/lib/explorer/curl";
import { buildCall, EMPTY_REQUEST, type ExplorerRequest } from "@/lib/explorer/params";
import { sentUpstreamRequest } from "@/lib/explorer/sent-request";
import { buildJavaScriptSnippet, buildPythonSnippet } from "@/lib/explorer/snippets";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";

const run = promisify(execFile);

/** The code, failing the test when there is none. */
function code(result: RequestCode): string {
  if (!result.complete) throw new Error(`no code: ${result.reason}`);
  return result.code;
}

/** A JSON POST as the console's wire record has it: token masked, body as sent. */
function jsonPost(base: string): WireRecord {
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
    const curl = code(buildCurl(jsonPost(emulator.url)));
    expect(curl).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(curl).toContain(`--data '{"channel":"general","text":"it'\\''s shipped"`);
    const { stdout } = await run("bash", ["-c", curl], { env: { ...process.env, TOKEN: token } });
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, message: { text: "it's shipped", blocks: [{ type: "section" }] } });
  });

  it("the @slack/web-api snippet runs as written, with TOKEN from the environment", async () => {
    const snippet = code(buildJavaScriptSnippet(jsonPost(emulator.url), { method: findMethod(METHOD_CATALOG, "chat.postMessage") }));
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
    const wire: WireRecord = {
      method: "POST",
      url: "https://slack.com/api/teams.secret",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1&token=xoxb-x",
    };
    const snippet = code(buildJavaScriptSnippet(wire, {}));
    expect(snippet).toContain(`new WebClient(process.env.TOKEN);`);
    expect(snippet).toContain(`client.apiCall("teams.secret", {\n  a: "1",\n})`);
    expect(snippet).not.toContain("xoxb");
  });

  it("a method outside the catalog goes through slack_sdk's api_call, with the verb and the encoding: json=, data= or params=", () => {
    const outside = (wire: WireRecord) => code(buildPythonSnippet({ ...wire, url: wire.url.replace("chat.postMessage", "chat.secret") }));
    expect(outside(jsonPost("http://localhost:3000/emulator"))).toContain(
      'client = WebClient(token=os.environ["TOKEN"], base_url="http://localhost:3000/emulator/api/")',
    );
    const json = outside(jsonPost("https://slack.com"));
    expect(json).toContain('client = WebClient(token=os.environ["TOKEN"])');
    expect(json).toContain('client.api_call("chat.secret", http_verb="POST", json={');
    expect(json).toContain('"unfurl_links": False');
    const get = code(buildPythonSnippet({ method: "GET", url: "https://slack.com/api/users.secret?limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D", headers: {} }));
    expect(get).toContain('http_verb="GET", params={\n    "limit": "50",\n    "cursor": "dXNlcjpVMDYxTkZUVDI=",\n}');
    const form = code(
      buildPythonSnippet({
        method: "POST",
        url: "https://slack.com/api/conversations.secret",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "channel=C1",
      }),
    );
    expect(form).toContain('http_verb="POST", data={');
  });

  it("keeps a `__proto__` key of a JSON value in the JavaScript snippet", async () => {
    // As JSON text: an object literal written here would take the key for its prototype.
    const wire = { ...jsonPost("https://slack.com"), body: '{"channel":"C1","metadata":{"event_type":"t","event_payload":{"__proto__":"kept"}}}' };
    // Evaluated as the object literal it is, the snippet's arguments must still hold the key.
    const snippet = code(buildJavaScriptSnippet(wire, { method: findMethod(METHOD_CATALOG, "chat.postMessage") }));
    const literal = /client\.chat\.postMessage\(([\s\S]*)\);/.exec(snippet)?.[1] ?? "";
    const args = new Function(`return (${literal});`)() as { metadata: { event_payload: object } };
    expect(Object.keys(args.metadata.event_payload)).toEqual(["__proto__"]);
  });

  it("writes no snippet for a request known only in part, and says why", () => {
    const cut = { ...jsonPost("https://slack.com"), cut: { body: 9000 } };
    expect(buildJavaScriptSnippet(cut, {})).toMatchObject({ complete: false, reason: expect.stringContaining("Only part of this request is known") });
    expect(buildPythonSnippet(cut, {})).toMatchObject({ complete: false });
  });
});

/**
 * The snippets as the explorer builds them: the request as the form makes it (every value text for a GET or
 * a form), sent, and rebuilt from what was sent (lib/explorer/sent-request.ts).
 */
function sent(patch: Partial<ExplorerRequest>): WireRecord {
  const request: ExplorerRequest = { ...EMPTY_REQUEST, limit: "", installation: "I1", ...patch };
  const method = findMethod(METHOD_CATALOG, request.method);
  const call = buildCall(request, new Map((method?.args ?? []).map((a) => [a.name, a.type] as const)));
  const headers: Record<string, string> = { authorization: "Bearer xoxe.xoxb-…a1b2" };
  if (call.contentType) headers["content-type"] = call.contentType;
  const recorded: WireRecord = { method: call.httpMethod, url: `https://slack.com/api/${request.method}`, headers };
  return sentUpstreamRequest(call, recorded)!;
}

const pairs = (entries: Record<string, string>) => Object.entries(entries).map(([key, value]) => ({ key, value }));
const BLOCKS = JSON.stringify([{ type: "section", text: { type: "mrkdwn", text: "*shipped*" } }]);

/** Calls the explorer may make, each with arguments of every type the catalog gives (text, integer, boolean, JSON). */
const CALLS: Array<{ name: string; request: Partial<ExplorerRequest>; python: Record<string, string> }> = [
  {
    name: "users.list",
    request: { method: "users.list", limit: "50", extra: pairs({ include_locale: "true" }) },
    python: { limit: "int", include_locale: "bool" },
  },
  {
    name: "users.list, paged by POST",
    request: { method: "users.list", httpMethod: "POST", limit: "2", cursor: "dXNlcjpVMDYxTkZUVDI=" },
    python: { limit: "int", cursor: "str" },
  },
  {
    name: "chat.postMessage, form-encoded",
    request: {
      method: "chat.postMessage",
      httpMethod: "POST",
      extra: pairs({ channel: "general", text: "it's shipped", unfurl_links: "false", blocks: BLOCKS }),
    },
    python: { channel: "str", text: "str", unfurl_links: "bool", blocks: "list" },
  },
  {
    name: "chat.postMessage, JSON",
    request: {
      method: "chat.postMessage",
      httpMethod: "POST",
      encoding: "json",
      extra: pairs({ channel: "general", text: "漢字", thread_ts: "1700000000.000100", reply_broadcast: "1", blocks: BLOCKS }),
    },
    python: { channel: "str", text: "str", thread_ts: "str", reply_broadcast: "bool", blocks: "list" },
  },
  {
    name: "conversations.history",
    request: { method: "conversations.history", limit: "20", extra: pairs({ channel: "C1", inclusive: "true" }) },
    python: { limit: "int", channel: "str", inclusive: "bool" },
  },
  {
    name: "conversations.list",
    request: { method: "conversations.list", limit: "100", extra: pairs({ exclude_archived: "true", types: "public_channel" }) },
    python: { limit: "int", exclude_archived: "bool", types: "str" },
  },
  {
    name: "reactions.add",
    request: { method: "reactions.add", httpMethod: "POST", extra: pairs({ channel: "C1", name: "tada", timestamp: "1700000000.000100" }) },
    python: { channel: "str", name: "str", timestamp: "str" },
  },
  { name: "auth.test", request: { method: "auth.test" }, python: {} },
];

describe("Snippets that type-check against the official clients", () => {
  const dir = join(process.cwd(), "node_modules", ".cache", "snippet-types");

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("compiles every JavaScript snippet with @slack/web-api's own types (tsc, strict)", async () => {
    await mkdir(dir, { recursive: true });
    const files: string[] = [];
    for (const [i, { request }] of CALLS.entries()) {
      const snippet = code(buildJavaScriptSnippet(sent(request), { method: findMethod(METHOD_CATALOG, request.method ?? "") }));
      expect(snippet).toContain(`client.${request.method}(`);
      const file = join(dir, `snippet-${i}.mts`);
      await writeFile(file, snippet);
      files.push(file);
    }
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: ["node"],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) => `${d.file ? `${CALLS[files.indexOf(d.file.fileName)]?.name ?? d.file.fileName}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    expect(problems).toEqual([]);
  }, 120_000);

  it("writes `limit: 50`, a number, where the form held the text 50", () => {
    const snippet = code(buildJavaScriptSnippet(sent({ method: "users.list", limit: "50" }), { method: findMethod(METHOD_CATALOG, "users.list") }));
    expect(snippet).toContain("client.users.list({\n  limit: 50,\n})");
  });

  it("calls each method by its own slack_sdk function, with keyword arguments of the catalog's types (python3's ast)", async () => {
    const snippets = CALLS.map(({ request }) => code(buildPythonSnippet(sent(request), { method: findMethod(METHOD_CATALOG, request.method ?? "") })));
    const script = `
import ast, json, sys
out = []
for source in json.load(sys.stdin):
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "client"]
    call = calls[0]
    keywords = {}
    for k in call.keywords:
        value = ast.literal_eval(k.value)
        if k.arg is None:
            keywords.update({key: type(v).__name__ for key, v in value.items()})
        else:
            keywords[k.arg] = type(value).__name__
    out.append({"function": "client." + call.func.attr, "positional": len(call.args), "keywords": keywords})
print(json.dumps(out))
`;
    const parsed = await new Promise<string>((resolve, reject) => {
      const child = spawn("python3", ["-c", script]);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("close", (status) => (status === 0 ? resolve(stdout) : reject(new Error(stderr))));
      child.stdin.end(JSON.stringify(snippets));
    });
    const calls = JSON.parse(parsed) as Array<{ function: string; positional: number; keywords: Record<string, string> }>;
    expect(calls).toEqual(
      CALLS.map(({ request, python }) => ({ function: `client.${(request.method ?? "").replaceAll(".", "_")}`, positional: 0, keywords: python })),
    );
  });

  it("passes a name Python cannot take as a keyword through **{…}", () => {
    const snippet = code(
      buildPythonSnippet(sent({ method: "users.list", extra: pairs({ from: "x", "a-b": "y" }) }), { method: findMethod(METHOD_CATALOG, "users.list") }),
    );
    expect(snippet).toContain('client.users_list(\n    **{\n        "from": "x",\n        "a-b": "y",\n    },\n)');
  });

  it("uses apiCall for arguments the catalog does not list, which the client's argument types would refuse", () => {
    const snippet = code(
      buildJavaScriptSnippet(sent({ method: "users.list", limit: "5", extra: pairs({ note: "n" }) }), { method: findMethod(METHOD_CATALOG, "users.list") }),
    );
    expect(snippet).toContain('client.apiCall("users.list", {\n  limit: 5,\n  note: "n",\n})');
  });
});
