/**
 * Issue 41: the admin surface's history (what the Workspace page reads as a person scrolls up) reads an index of
 * the conversation's log made once for each state of it, not a walk of the log for every page. What it answers
 * must stay the log's as the log changes between reads: a post, a reply to an older message, a delete, and a
 * delete followed by a post (the log as long as before). The Web API's conversations.history, which walks the log
 * on every call, is the oracle for the top-level messages.
 */
import { describe, expect, it } from "vitest";
import { createHarness, type Json } from "./support/emulator-harness";

async function setUp() {
  const h = createHarness();
  const { rotation } = await h.apps();
  const bot = await h.install(rotation, { scope: ["chat:write", "channels:join", "channels:history"] });
  const general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!;
  await h.call("conversations.join", { channel: general.id }, { token: bot.access_token });
  return { h, bot, general };
}

type Harness = Awaited<ReturnType<typeof setUp>>["h"];
interface Wire {
  ts: string;
  text: string;
  thread_ts?: string;
}
const isTop = (m: Wire) => m.thread_ts === undefined || m.thread_ts === m.ts;

/** Every message of the admin history, oldest first, page by page (`limit` top-level messages a page), starting at `cursor`. */
async function readAll(h: Harness, channel: string, limit: number, cursor = ""): Promise<Wire[]> {
  const seen: Wire[] = [];
  do {
    const { status, body } = await h.admin(`workspace/history?channel=${channel}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(status).toBe(200);
    seen.unshift(...(body.messages as Wire[]));
    cursor = (body.response_metadata as { next_cursor: string }).next_cursor;
  } while (cursor !== "");
  return seen;
}

/** The top-level messages' ts, oldest first, as the Web API's conversations.history pages them. */
async function webApiTop(h: Harness, token: string, channel: string): Promise<string[]> {
  const all: string[] = [];
  let cursor = "";
  do {
    const { body } = await h.call("conversations.history", { channel, limit: "200", ...(cursor ? { cursor } : {}) }, { token });
    all.unshift(...(body.messages as Wire[]).map((m) => m.ts).reverse());
    cursor = (body.response_metadata as { next_cursor?: string } | undefined)?.next_cursor ?? "";
  } while (cursor !== "");
  return all;
}

describe("the admin history as the conversation's log changes between reads", () => {
  it("answers what the log holds after a post, a reply to an older message, a delete, and a delete then a post", async () => {
    const { h, bot, general } = await setUp();
    const token = bot.access_token as string;
    const post = async (text: string, thread_ts?: string) =>
      (await h.call("chat.postMessage", { channel: general.id, text, ...(thread_ts ? { thread_ts } : {}) }, { token })).body as Json & { ts: string };
    const posted: string[] = [];
    for (let i = 0; i < 30; i++) posted.push((await post(`log ${i}`)).ts);

    // The first page read (the index made), and the cursor it gave for the next.
    const first = (await h.admin(`workspace/history?channel=${general.id}&limit=5`)).body;
    expect((first.messages as Wire[]).map((m) => m.text)).toEqual(["log 25", "log 26", "log 27", "log 28", "log 29"]);
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;

    // A reply to an older message: its thread, asked by the reply, holds it; its parent's page carries it.
    const reply = (await post("a late reply", posted[3])).ts;
    const thread = (await h.admin(`workspace/history?channel=${general.id}&message=${reply}`)).body;
    expect((thread.messages as Wire[]).map((m) => m.text)).toEqual(["log 3", "a late reply"]);

    // A delete, then a delete followed by a post (the log as long as it was).
    await h.call("chat.delete", { channel: general.id, ts: posted[29]! }, { token });
    let after = (await h.admin(`workspace/history?channel=${general.id}&limit=5`)).body;
    expect((after.messages as Wire[]).map((m) => m.text)).toEqual(["log 24", "log 25", "log 26", "log 27", "log 28"]);
    await h.call("chat.delete", { channel: general.id, ts: posted[28]! }, { token });
    await post("log 30");
    after = (await h.admin(`workspace/history?channel=${general.id}&limit=5`)).body;
    expect((after.messages as Wire[]).map((m) => m.text)).toEqual(["log 24", "log 25", "log 26", "log 27", "log 30"]);

    // The cursor given before every change still goes on from where it said, to the first message.
    const older = await readAll(h, general.id, 7, cursor);
    expect(
      older
        .filter(isTop)
        .map((m) => m.text)
        .filter((t) => t.startsWith("log ")),
    ).toEqual(Array.from({ length: 25 }, (_, i) => `log ${i}`));
    // The late reply comes with its parent's page, after its parent (a page is in the log's order), once.
    const parentAt = older.findIndex((m) => m.text === "log 3");
    const replies = older.flatMap((m, i) => (m.text === "a late reply" ? [i] : []));
    expect(replies).toHaveLength(1);
    expect(replies[0]).toBeGreaterThan(parentAt);
    expect(older[replies[0]!]).toMatchObject({ ts: reply, thread_ts: posted[3] });

    // Read whole, page by page, the top-level messages are the Web API's, each once.
    const whole = await readAll(h, general.id, 4);
    expect(whole.filter(isTop).map((m) => m.ts)).toEqual(await webApiTop(h, token, general.id));
    expect(new Set(whole.map((m) => m.ts)).size).toBe(whole.length);
    expect(whole.map((m) => m.text)).not.toContain("log 29");
    expect(whole.map((m) => m.text)).not.toContain("log 28");
  });
});
