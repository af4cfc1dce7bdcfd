import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listRoute, POST as pasteRoute } from "@/app/api/webhooks/route";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import { AppError } from "@/lib/http/app-error";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { openTestStore } from "../support/store";

// The store cannot record the send (its database went away between the send and the history).
vi.mock(import("@/lib/webhooks/history"), async (importOriginal) => {
  const original = await importOriginal();
  return {
    ...original,
    recordSend: async () => {
      throw new AppError("store_unavailable");
    },
  };
});

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
  await openTestStore();
});
afterAll(() => testConsole.close());

describe("a send whose history cannot be saved", () => {
  it("still answers what the platform said, so a delivered message is not reported as failed", async () => {
    expect((await installIn(new TestBrowser(testConsole.origin))).status).toBe(303);
    const [installed] = [...testConsole.emulator.emulator.state.installations.values()];
    const hook = installed?.incomingWebhook;
    if (!installed || !hook) throw new Error("the install gave no webhook");
    const browser = new TestBrowser(testConsole.origin);
    const url = `${testConsole.origin}/emulator/services/${installed.teamId}/${hook.hookId}/${hook.secret}`;
    expect((await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url } })).status).toBe(201);
    const { webhooks } = (await (await browser.send(listRoute, "/api/webhooks")).json()) as { webhooks: Array<{ id: string; channelId: string }> };
    const webhook = webhooks[0]!;

    const response = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "delivered once" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, status: 200, body: "ok" });
    const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as {
      channels: Array<{ id: string; messages: Array<{ text: string }> }>;
    };
    expect(state.channels.find((c) => c.id === webhook.channelId)?.messages.map((m) => m.text)).toEqual(["delivered once"]);
  });
});
