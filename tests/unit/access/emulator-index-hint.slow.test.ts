import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort, startStandaloneEmulator } from "../../e2e/support/hosted";

/**
 * The emulator's index page ({base}/) tells a developer how to issue an app configuration token: a curl
 * command to copy. Each test copies it from the page as served and runs it with the real curl, in a shell
 * whose environment holds EMULATOR_ADMIN_TOKEN as the server's does: the command must issue a token in each
 * mode. On the embedded emulator with sign-in on (AUTH_MODE=oidc) the console lets an Origin alone through
 * for nobody (lib/access/emulator-admin-gate.ts: 401 sign_in_required), so the command names the admin token's
 * header there; on loopback without sign-in, and on a standalone emulator (`npm run emulator`), the Origin.
 */
const TOKEN = randomBytes(32).toString("base64url");

let server: Server;
let origin = "";
/** What the console's /emulator route is, for the configuration of the current test (loaded anew for each). */
let handle: ((request: Request) => Promise<Response>) | undefined;

/** The console's /emulator route served over HTTP, as `next start` serves it, so that curl can reach it. */
async function serve(request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const answer = await handle!(new Request(`${origin}${request.url}`, { method: request.method, headers, ...(body ? { body } : {}) }));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
}

/** The embedded emulator of a console configured by `env` (its own process's, made anew), at `origin`/emulator. */
async function embeddedConsole(env: Record<string, string>) {
  vi.resetModules();
  // The process's embedded emulator is made once, from the configuration of its first request: a new mode needs a new one.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("switchboard.embeddedEmulator")];
  for (const [key, value] of Object.entries({
    PLATFORM_BASE_URL: "",
    APP_ORIGIN: origin,
    SESSION_PASSWORD: "x".repeat(32),
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    EMULATOR_USERS: "40",
    EMULATOR_ADMIN_TOKEN: TOKEN,
    ...env,
  }))
    vi.stubEnv(key, value);
  const route = await import("@/app/emulator/[[...path]]/route");
  (await import("@/lib/embedded-emulator")).getEmbeddedEmulator();
  handle = (request) => (request.method === "GET" ? route.GET(request) : route.POST(request));
}

/** The page's command, as a person copies it from the page (its HTML entities read as the browser shows them). */
async function copiedCommand(indexUrl: string): Promise<{ page: string; command: string }> {
  const page = await (await fetch(indexUrl)).text();
  const code = /<pre[^>]*><code>(curl [^<]*)<\/code><\/pre>/.exec(page)?.[1];
  if (!code) throw new Error(`no curl command on ${indexUrl}`);
  const command = code
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return { page, command };
}

/** Runs the command in a shell with the server's EMULATOR_ADMIN_TOKEN in its environment, as on the server's machine; its answer as JSON. */
function run(command: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile("bash", ["-c", `${command} --silent`], { env: { ...process.env, EMULATOR_ADMIN_TOKEN: TOKEN }, timeout: 20_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Record<string, unknown>),
    ),
  );
}

beforeAll(async () => {
  server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The console's modules, transformed once (minutes on a busy machine); each test then loads them anew in moments.
  await import("@/app/emulator/[[...path]]/route");
}, 300_000);
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("the emulator index page's command for an app configuration token", () => {
  it("on the developer's own console (loopback, nobody signs in) names the Origin, and issues a token", async () => {
    await embeddedConsole({ AUTH_MODE: "none" });
    const { command } = await copiedCommand(`${origin}/emulator/`);
    expect(command).toContain(`-H 'Origin: ${origin}'`);
    expect(await run(command)).toMatchObject({ ok: true, token: expect.stringMatching(/^xoxe\./) });
  });

  it("with sign-in on (AUTH_MODE=oidc) names the admin token's header, says why, and issues a token", async () => {
    await embeddedConsole({ AUTH_MODE: "oidc" });
    const { page, command } = await copiedCommand(`${origin}/emulator/`);
    expect(command).toContain(`-H 'Authorization: Bearer '"$EMULATOR_ADMIN_TOKEN"`);
    expect(command).not.toContain("Origin:");
    // The command names the variable, never the token itself.
    expect(page).not.toContain(TOKEN);
    expect(page).toContain("People sign in to this server");
    expect(await run(command)).toMatchObject({ ok: true, token: expect.stringMatching(/^xoxe\./) });
    // What the page said before: an Origin alone, which the console answers with 401 when people sign in.
    expect(await run(`curl -X POST -H 'Origin: ${origin}' -H 'Content-Type: application/json' -d '{}' ${origin}/emulator/admin/config-tokens`)).toMatchObject({
      ok: false,
      error: "sign_in_required",
    });
  });

  it("on a standalone emulator (npm run emulator) names the Origin, and issues a token", async () => {
    const emulator = await startStandaloneEmulator({ port: await freePort(), seed: "index-hint", adminToken: TOKEN, consoleOrigins: [] });
    try {
      const { command } = await copiedCommand(`${emulator.url}/`);
      expect(command).toContain(`-H 'Origin: ${emulator.url}'`);
      expect(await run(command)).toMatchObject({ ok: true, token: expect.stringMatching(/^xoxe\./) });
    } finally {
      emulator.stop();
    }
  }, 60_000);
});
