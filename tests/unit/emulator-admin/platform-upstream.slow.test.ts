/**
 * The emulator-only shortcuts with the real platform as the upstream (PLATFORM_BASE_URL pointing at a server
 * that does not say it is an emulator): the settings page's "Generate a configuration token", the emulator's
 * method list and a webhook channel's messages are refused with 404 not_emulator saying why, the settings
 * page is told there is no emulator (so it offers no Generate), a webhook URL on the upstream's host is not
 * taken for an emulator's, and nothing is ever asked of an admin surface there.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as overviewRoute } from "@/app/api/app-config/route";
import { POST as generateRoute } from "@/app/api/app-config/token/generate/route";
import { GET as methodsRoute } from "@/app/api/emulator/methods/route";
import { GET as messagesRoute } from "@/app/api/emulator/messages/route";
import { POST as pasteRoute } from "@/app/api/webhooks/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";

let testConsole: TestConsole;
let platform: Server;
let platformUrl = "";
/** Every path the "platform" was asked for. */
const asked: string[] = [];
let operator: TestBrowser;

beforeAll(async () => {
  // A platform: it knows no /.well-known/emulator, nor anything else this test asks.
  platform = createServer((request, response) => {
    asked.push(request.url ?? "");
    response.writeHead(404, { "content-type": "application/json" }).end('{"ok":false,"error":"unknown_method"}');
  });
  await new Promise<void>((resolve) => platform.listen(0, "127.0.0.1", resolve));
  platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  testConsole = await startTestConsole();
  Object.assign(process.env, { PLATFORM_BASE_URL: `${platformUrl}/api`, CLIENT_ID: "1.2", CLIENT_SECRET: "s".repeat(32), SIGNING_SECRET: "g".repeat(32) });
  operator = new TestBrowser(testConsole.origin);
}, 120_000);

afterAll(async () => {
  for (const name of ["PLATFORM_BASE_URL", "CLIENT_ID", "CLIENT_SECRET", "SIGNING_SECRET"]) delete process.env[name];
  await testConsole?.close();
  await new Promise((resolve) => platform?.close(resolve));
});

/** A refusal's status and body. */
async function refusal(response: Response): Promise<{ status: number; error: string; message: string }> {
  const body = (await response.json()) as { error: string; message: string };
  return { status: response.status, error: body.error, message: body.message };
}

describe("the real platform as the upstream", () => {
  it("refuses the emulator's Generate Token, saying where the platform's tokens come from, and the settings page offers none", async () => {
    const overview = (await (await operator.send(overviewRoute, "/api/app-config")).json()) as Record<string, unknown>;
    expect(overview).toMatchObject({ emulator: null, backend: null });
    const generated = await refusal(await operator.send(generateRoute, "/api/app-config/token/generate", { method: "POST", json: {} }));
    expect(generated).toMatchObject({ status: 404, error: "not_emulator" });
    expect(generated.message).toContain(`The upstream at ${platformUrl}/api is the platform, not an emulator`);
    expect(generated.message).toContain("Your Apps page");
  });

  it("refuses the emulator's method list and a channel's messages, saying why", async () => {
    const methods = await refusal(await operator.send(methodsRoute, "/api/emulator/methods"));
    expect(methods).toMatchObject({ status: 404, error: "not_emulator" });
    expect(methods.message).toMatch(/is the platform, not an emulator: it publishes its methods in its documentation/);
    const messages = await refusal(await operator.send(messagesRoute, "/api/emulator/messages?channel=C0123ABCD"));
    expect(messages).toMatchObject({ status: 404, error: "not_emulator" });
    expect(messages.message).toMatch(/is the platform, not an emulator: open the channel in the platform's client/);
  });

  it("takes no webhook URL on the upstream's own host for an emulator's", async () => {
    const pasted = await refusal(
      await operator.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url: `${platformUrl}/api/services/T0123/B0123/secret0123` } }),
    );
    expect(pasted).toMatchObject({ status: 400, error: "invalid_webhook_url" });
  });

  it("never asked the platform for an admin surface", () => {
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((path) => path.includes("/admin/"))).toEqual([]);
  });
});
