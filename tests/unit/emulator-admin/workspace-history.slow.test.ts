/**
 * Issue 41: the Workspace page's history route pages a conversation through conversations.history's cursor,
 * so its first message is reachable however long it is (it answered the latest 1,000 and no more), against
 * the real emulator over HTTP: every message once, in order, while new ones arrive between pages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as historyRoute } from "@/app/api/workspace/history/route";
import { GET as memberRoute } from "@/app/api/workspace/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { adminCall } from "../emulator/support/socket-mode-app";

let server: TestConsole;

beforeAll(async () => {
  server = await startTestConsole();
});

afterAll(async () => {
  await server.close();
});

interface Page {
  messages: Array<{ ts: string; text: string; thread_ts?: string }>;
  has_more: boolean;
  response_metadata: { next_cursor: string };
}

/** Posts `texts` as the member, one after another so they keep their order (the admin surface's act, over HTTP). */
async function post(channel: string, texts: string[], threadTs?: string): Promise<string[]> {
  const stamps: string[] = [];
  for (const text of texts) {
    const answer = (await adminCall(server.emulator, "act/post", { channel, text, ...(threadTs ? { thread_ts: threadTs } : {}) })) as { ts: string };
    stamps.push(answer.ts);
  }
  return stamps;
}

async function read(browser: TestBrowser, query: string): Promise<{ status: number; body: Page & { error?: string } }> {
  const response = await browser.send(historyRoute, `/api/workspace/history?${query}`);
  return { status: response.status, body: (await response.json()) as Page & { error?: string } };
}

describe("the Workspace page's history, page by page", () => {
  it("reaches the first of 1,200 messages by cursor, each once and in order, while new ones arrive", async () => {
    const browser = new TestBrowser(server.origin);
    const member = (await (await browser.send(memberRoute, "/api/workspace")).json()) as { conversations: Array<{ id: string; name: string }> };
    const channel = member.conversations.find((c) => c.name === "general")!.id;
    const texts = Array.from({ length: 1200 }, (_, i) => `history ${String(i).padStart(4, "0")}`);
    const stamps = await post(channel, texts);
    const [reply] = await post(channel, ["a reply to message 7"], stamps[7]);

    const seen: Page["messages"] = [];
    let cursor = "";
    let pages = 0;
    do {
      const { status, body } = await read(browser, `channel=${channel}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(status).toBe(200);
      // Each page oldest first, every message older than the page before it.
      const ts = body.messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts).map((m) => m.ts);
      expect(ts).toEqual([...ts].sort());
      if (seen.length > 0 && ts.length > 0) expect(ts.at(-1)! < seen[0]!.ts).toBe(true);
      seen.unshift(...body.messages);
      cursor = body.response_metadata.next_cursor;
      expect(body.has_more).toBe(cursor !== "");
      pages += 1;
      // A newer message arriving between pages moves nothing: the cursor names where the next page starts.
      if (pages === 2) await post(channel, ["arrived while reading"]);
    } while (cursor !== "");

    expect(pages).toBeGreaterThanOrEqual(6);
    const read1200 = seen.map((m) => m.text).filter((t) => t.startsWith("history "));
    expect(read1200).toEqual(texts);
    // The reply came with its parent's page, and the channel's seeded messages before the posted ones too.
    expect(seen.find((m) => m.ts === reply)).toMatchObject({ thread_ts: stamps[7], text: "a reply to message 7" });
    expect(seen.map((m) => m.text)).not.toContain("arrived while reading");
    expect(new Set(seen.map((m) => m.ts)).size).toBe(seen.length);
  }, 120_000);

  it("answers one message's thread, and refuses a cursor it did not give", async () => {
    const browser = new TestBrowser(server.origin);
    const member = (await (await browser.send(memberRoute, "/api/workspace")).json()) as { conversations: Array<{ id: string; name: string }> };
    const channel = member.conversations.find((c) => c.name === "general")!.id;
    const [parent] = await post(channel, ["a parent"]);
    const [reply] = await post(channel, ["its reply"], parent);
    await post(channel, ["after the thread"]);

    // Asked by the reply's ts: the whole thread it is in, nothing else.
    const thread = await read(browser, `channel=${channel}&message=${reply}`);
    expect(thread.status).toBe(200);
    expect(thread.body.messages.map((m) => m.text)).toEqual(["a parent", "its reply"]);
    expect(thread.body.has_more).toBe(false);

    const forged = await read(browser, `channel=${channel}&cursor=${encodeURIComponent("dXNlcjpVMDAwMDAwMDA=")}`);
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.body.error).toBe("invalid_cursor");
    const badTs = await read(browser, `channel=${channel}&message=yesterday`);
    expect(badTs.status).toBe(422);
  });
});
