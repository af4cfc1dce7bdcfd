/**
 * The admin surface's workspace reads and stream, what the console's Workspace page shows a member: the
 * conversations they see, a conversation's history with its threads and their own ephemeral messages, and a
 * live stream of changes that carries to each member only what they may see, bounded in streams and bytes.
 */
import { describe, expect, it } from "vitest";
import { MAX_QUEUED_BYTES, MAX_WORKSPACE_STREAMS } from "@/lib/emulator/admin/workspace-stream";
import { createHarness, ORIGIN, type Json } from "./support/emulator-harness";

async function setUp() {
  const h = createHarness();
  const { rotation } = await h.apps();
  const bot = await h.install(rotation);
  const ws = h.emulator.state.workspace;
  const general = ws.channels.find((c) => c.isGeneral)!;
  await h.call("conversations.join", { channel: general.id }, { token: bot.access_token });
  const { body: member } = await h.admin("workspace/member");
  const [owner, second] = (member.people as Array<{ id: string }>).map((p) => p.id);
  return { h, bot, general, owner: owner!, second: second!, member };
}

/** Opens a member's stream; `next(type)` reads until a change of that type (or `ready`) arrives. */
async function openStream(h: ReturnType<typeof createHarness>, user: string) {
  const controller = new AbortController();
  const response = await h.emulator.fetch(new Request(`${ORIGIN}/admin/workspace/stream?user=${user}`, { signal: controller.signal }));
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const events: Array<{ event: string; data: Json }> = [];
  async function next(): Promise<{ event: string; data: Json }> {
    for (;;) {
      const shifted = events.shift();
      if (shifted) return shifted;
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) as Json });
      }
    }
  }
  return { response, reader, next, close: () => controller.abort() };
}

describe("the workspace as a member sees it (admin/workspace/*)", () => {
  it("lists the member's people, apps with their commands, and conversations; a history holds threads and only their ephemerals", async () => {
    const { h, bot, general, owner, second, member } = await setUp();
    expect(member.user).toBe(owner);
    expect((member.apps as Json[]).map((a) => a.app_id)).toContain(bot.app_id);
    expect((member.conversations as Json[]).find((c) => c.id === general.id)).toMatchObject({ name: general.name, type: "public", is_member: true });

    const parent = (await h.call("chat.postMessage", { channel: general.id, text: "parent" }, { token: bot.access_token })).body;
    await h.admin("act/post", { channel: general.id, text: "a reply", thread_ts: parent.ts, user: second });
    await h.call("chat.postEphemeral", { channel: general.id, user: second, text: "only for you" }, { token: bot.access_token });

    const ofSecond = (await h.admin(`workspace/history?channel=${general.id}&user=${second}`)).body;
    expect((ofSecond.messages as Json[]).map((m) => [m.text, m.thread_ts ?? null])).toEqual([
      ["parent", parent.ts],
      ["a reply", parent.ts],
    ]);
    expect(ofSecond.names[second]).toEqual(expect.any(String));
    // The ephemeral shows in its member's history read, and in no one else's.
    expect((ofSecond.ephemerals as Json[]).map((e) => [e.text, e.user])).toEqual([["only for you", second]]);
    const ofOwner = (await h.admin(`workspace/history?channel=${general.id}&user=${owner}`)).body;
    expect(ofOwner.ephemerals).toEqual([]);

    expect((await h.admin("workspace/history?channel=C0NOPE")).status).toBe(404);
    expect((await h.admin("workspace/member?user=U0NOBODY")).body).toMatchObject({ ok: false, error: "user_not_found" });
  });

  it("streams posts, edits, reactions and deletions live, and an ephemeral message only to its member", async () => {
    const { h, bot, general, owner, second } = await setUp();
    const mine = await openStream(h, owner);
    const theirs = await openStream(h, second);
    expect((await mine.next()).event).toBe("ready");
    expect((await theirs.next()).event).toBe("ready");

    const posted = (await h.call("chat.postMessage", { channel: general.id, text: "from the app" }, { token: bot.access_token })).body;
    expect((await mine.next()).data).toMatchObject({ type: "message_posted", channel: general.id, message: { text: "from the app", ts: posted.ts } });
    expect((await theirs.next()).data).toMatchObject({ type: "message_posted", message: { ts: posted.ts } });

    await h.call("chat.postEphemeral", { channel: general.id, user: second, text: "psst" }, { token: bot.access_token });
    await h.call("chat.update", { channel: general.id, ts: posted.ts, text: "edited" }, { token: bot.access_token });
    // The owner's next change is the edit: the ephemeral was never theirs.
    expect((await mine.next()).data).toMatchObject({ type: "message_changed", message: { text: "edited" } });
    expect((await theirs.next()).data).toMatchObject({ type: "ephemeral", user: second, message: { text: "psst", subtype: "ephemeral" } });
    expect((await theirs.next()).data).toMatchObject({ type: "message_changed" });

    await h.admin("act/react", { channel: general.id, ts: posted.ts, name: "tada", user: second });
    expect((await mine.next()).data).toMatchObject({ type: "reaction", ts: posted.ts, reaction: "tada", user: second, added: true });
    await h.call("chat.delete", { channel: general.id, ts: posted.ts }, { token: bot.access_token });
    expect((await mine.next()).data).toMatchObject({ type: "message_deleted", ts: posted.ts });

    const home = { type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text: "Welcome home" } }] };
    await h.call("views.publish", { user_id: second, view: JSON.stringify(home) }, { token: bot.access_token });
    await h.call("views.publish", { user_id: owner, view: JSON.stringify(home) }, { token: bot.access_token });
    // Each sees their own App Home published, not the other's.
    expect((await theirs.next()).data).toMatchObject({ type: "reaction" });
    expect((await theirs.next()).data).toMatchObject({ type: "message_deleted" });
    expect((await theirs.next()).data).toMatchObject({ type: "view", user: second, app_id: bot.app_id, view_type: "home", closed: false });
    expect((await mine.next()).data).toMatchObject({ type: "view", user: owner, view_type: "home" });
    mine.close();
    theirs.close();
  });

  it("offers a person who joined to act as, lets them act, and tells every member's stream", async () => {
    const { h, general, owner, second } = await setUp();
    const mine = await openStream(h, owner);
    const theirs = await openStream(h, second);
    expect((await mine.next()).event).toBe("ready");
    expect((await theirs.next()).event).toBe("ready");
    const joined = (await h.admin("act/join-team", { real_name: "Ada Lovelace" })).body.user as Json;
    for (const stream of [mine, theirs]) expect((await stream.next()).data).toEqual({ type: "member_joined", user: joined.id, name: "Ada Lovelace" });
    const { body: member } = await h.admin("workspace/member");
    expect(member.people).toContainEqual({ id: joined.id, name: "Ada Lovelace" });
    // They are a member like any other: the page acts as them.
    const asThem = await h.admin(`workspace/member?user=${joined.id}`);
    expect(asThem.body).toMatchObject({ ok: true, user: joined.id });
    expect((await h.admin("act/post", { channel: general.id, text: "hello", user: joined.id })).body.ok).toBe(true);
    mine.close();
    theirs.close();
  });

  it("refuses a stream past the cap, and takes one again once a viewer goes", async () => {
    const { h, owner } = await setUp();
    const open = await Promise.all(Array.from({ length: MAX_WORKSPACE_STREAMS }, () => openStream(h, owner)));
    expect(open.every((s) => s.response.status === 200)).toBe(true);
    const refused = await h.emulator.fetch(new Request(`${ORIGIN}/admin/workspace/stream?user=${owner}`));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ ok: false, error: "too_many_streams" });
    await open[0]!.reader.cancel();
    const again = await openStream(h, owner);
    expect(again.response.status).toBe(200);
    for (const s of [...open.slice(1), again]) s.close();
  });

  it("drops a viewer that falls more than its bound behind, and keeps the others", async () => {
    const { h, bot, general, owner } = await setUp();
    const slow = await openStream(h, owner);
    const text = "x".repeat(39_000);
    // Nothing is read from the slow stream while more than its bound is posted.
    for (let i = 0; i * 39_000 < MAX_QUEUED_BYTES + 100_000; i++) {
      await h.call("chat.postMessage", { channel: general.id, text }, { token: bot.access_token });
    }
    await expect(
      (async () => {
        for (;;) await slow.next();
      })(),
    ).rejects.toThrow(/dropped/);
    const fresh = await openStream(h, owner);
    expect((await fresh.next()).event).toBe("ready");
    fresh.close();
  });
});
