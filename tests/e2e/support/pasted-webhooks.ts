import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * Forgets every pasted webhook, through the console's own routes. They live in the server's store, which
 * outlasts a test's browser context (as it outlasts a person's cookies), so each test starts from none.
 */
export async function forgetPastedWebhooks(request: APIRequestContext): Promise<void> {
  const origin = test.info().project.use.baseURL!;
  // The header the console's own pages send (lib/console-request.ts): the API refuses reads that say nothing of their origin.
  const list = await request.get("/api/webhooks", { headers: { "x-switchboard-request": "1" } });
  expect(list.ok()).toBe(true);
  const { webhooks } = (await list.json()) as { webhooks: Array<{ id: string; source: string }> };
  for (const hook of webhooks.filter((w) => w.source === "pasted")) {
    expect((await request.delete(`/api/webhooks/${encodeURIComponent(hook.id)}`, { headers: { origin } })).ok()).toBe(true);
  }
}
