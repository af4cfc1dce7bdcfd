import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listKeysRoute, POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as listRoute, POST as pasteRoute } from "@/app/api/webhooks/route";
import { POST as sendRoute } from "@/app/api/webhooks/send/route";
import { describeUnhandled } from "@/lib/http/error-response";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Issue 37.10 on a real PostgreSQL, whose text columns cannot hold a NUL character: an API key named
 * `a\u0000b` answered 500 (and the log line carried the key's hash and prefix); a webhook text with a NUL was
 * posted but missing from the send history. Both are refused at the edge now, with nothing sent or kept.
 */
let postgres: TestPostgres;
let testConsole: TestConsole;
let browser: TestBrowser;

beforeAll(async () => {
  postgres = await startPostgres();
  testConsole = await startTestConsole({ DATABASE_URL: await postgres.createDatabase("nul"), BACKGROUND_REFRESH: "false" });
  browser = new TestBrowser(testConsole.origin);
}, 120_000);
afterAll(async () => {
  await testConsole?.close();
  await (await getStore().catch(() => undefined))?.close();
  await postgres?.stop();
});

interface EmulatorChannels {
  channels: Array<{ id: string; messages: Array<{ text: string }> }>;
}

describe("a NUL character sent to a console on PostgreSQL", () => {
  it("an API key named a\\u0000b is refused with 400 naming the field, and no key is made", async () => {
    const answer = await browser.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "a\u0000b" } });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ ok: false, error: "nul_character", message: expect.stringContaining('field "name"') });
    expect(((await (await browser.send(listKeysRoute, "/api/api-keys")).json()) as { apiKeys: unknown[] }).apiKeys).toEqual([]);
    expect((await browser.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "ab" } })).status).toBe(201);
  });

  it("a webhook text with a NUL is refused before it is posted; one without is posted and in the send history", async () => {
    expect((await installIn(browser)).status).toBe(303);
    const [installed] = [...testConsole.emulator.emulator.state.installations.values()];
    const hook = installed?.incomingWebhook;
    if (!installed || !hook) throw new Error("the install gave no webhook");
    const url = `${testConsole.origin}/emulator/services/${installed.teamId}/${hook.hookId}/${hook.secret}`;
    expect((await browser.send(pasteRoute, "/api/webhooks", { method: "POST", json: { url } })).status).toBe(201);
    const list = async () =>
      (await (await browser.send(listRoute, "/api/webhooks")).json()) as {
        webhooks: Array<{ id: string; channelId: string }>;
        history: Array<{ preview: string }>;
      };
    const webhook = (await list()).webhooks.find((w) => w.channelId === hook.channelId)!;

    const refused = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "before\u0000after" } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "nul_character", message: expect.stringContaining('field "text"') });
    const sent = await browser.send(sendRoute, "/api/webhooks/send", { method: "POST", json: { webhookId: webhook.id, text: "kept in the history" } });
    expect(sent.status).toBe(200);

    const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`)).json()) as EmulatorChannels;
    expect(state.channels.find((c) => c.id === webhook.channelId)?.messages.map((m) => m.text)).toEqual(["kept in the history"]);
    expect((await list()).history.map((h) => h.preview)).toEqual(["kept in the history"]);
  });

  it("a query that fails logs the statement and the database's reason, never the values it was sent (a key's hash and prefix)", async () => {
    const store = await getStore();
    const failure = await store.apiKeys
      .create({
        id: "key_nul",
        name: "a\u0000b",
        prefix: "sbk_PREFIXVALUE",
        keyHash: "HASHVALUE-of-the-key",
        appKey: "console",
        teamIds: null,
        createdAt: 1,
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain("HASHVALUE"); // what the log wrote before
    const logged = JSON.stringify(describeUnhandled(failure));
    expect(logged).not.toContain("HASHVALUE");
    expect(logged).not.toContain("PREFIXVALUE");
    expect(logged).toContain("insert into");
    expect(logged).toMatch(/0x00|invalid byte sequence/);
  });
});
