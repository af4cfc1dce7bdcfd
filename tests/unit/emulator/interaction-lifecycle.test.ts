/**
 * What interactivity hands out lives only as long as it can be used (response_urls, trigger ids, ephemeral
 * messages, closed modals, stopped streams); an ephemeral message an app posted with chat.postEphemeral can be
 * clicked and answered; a member's post carries what a client sends (a rich_text block, a client_msg_id);
 * and a member reacts only where they could. Against an in-process emulator whose app is a function.
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { interactivityOf } from "@/lib/emulator/interactivity/side-state";
import { answeringChallenges } from "./support/request-url";
import { createHarness, type AdminApp, type Json } from "./support/emulator-harness";

const APP_URL = "http://app.test";
const SCOPES = ["chat:write", "channels:join", "channels:history", "groups:write", "groups:history", "reactions:read", "reactions:write"];
const BUTTON = [{ type: "actions", block_id: "a", elements: [{ type: "button", action_id: "go", value: "now", text: { type: "plain_text", text: "Go" } }] }];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function setUp() {
  const interactions: Json[] = [];
  const events: Json[] = [];
  const onEvent = answeringChallenges(async (_url, init) => {
    events.push(JSON.parse(String(init.body)) as Json);
    return new Response("", { status: 200 });
  });
  const h = createHarness({
    deliverEvent: async (url, init) => {
      // Events come as JSON, interactions as a form whose `payload` field holds the JSON.
      const body = String(init.body);
      if (body.startsWith("{")) return onEvent(url, init);
      interactions.push(JSON.parse(new URLSearchParams(body).get("payload") ?? "{}") as Json);
      return new Response("", { status: 200 });
    },
  });
  const created = await h.admin("apps", {
    display_information: { name: "Lifecycle" },
    features: { bot_user: { display_name: "lifecycle" } },
    oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: SCOPES } },
    settings: {
      interactivity: { is_enabled: true, request_url: `${APP_URL}/interactive` },
      event_subscriptions: { request_url: `${APP_URL}/events`, bot_events: ["message.channels", "reaction_added"] },
    },
  });
  const app = created.body.app as AdminApp;
  const access = await h.install(app, { scope: SCOPES, userScope: [] });
  const bot = access.access_token as string;
  const ws = h.emulator.state.workspace;
  const general = ws.channels.find((c) => c.isGeneral)!.id;
  expect((await h.call("conversations.join", { channel: general }, { token: bot })).body.ok).toBe(true);
  const { body: seen } = await h.admin("workspace/member");
  const [owner, second] = (seen.people as Array<{ id: string }>).map((p) => p.id);
  const settle = async () => {
    await settleEventDeliveries(h.emulator.state);
    return events.splice(0);
  };
  return { h, app, bot, botUser: access.bot_user_id as string, ws, general, owner: owner!, second: second!, interactions, settle };
}

async function respondTo(h: ReturnType<typeof createHarness>, url: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await h.emulator.fetch(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as Json };
}

describe("what interactions hand out is forgotten once it cannot be used", () => {
  it("keeps only the live response_urls and trigger ids after many clicks and an hour", async () => {
    const { h, bot, ws, general } = await setUp();
    const posted = (await h.call("chat.postMessage", { channel: general, text: "press", blocks: JSON.stringify(BUTTON) }, { token: bot })).body;
    for (let i = 0; i < 50; i++) expect((await h.admin("act/click", { channel: general, ts: posted.ts, action_id: "go" })).body.outcome).toBe("ok");
    expect(interactivityOf(h.emulator.state).responseUrls.size).toBe(50);

    h.clock.advance(60 * 60 * 1000);
    const last = await h.admin("act/click", { channel: general, ts: posted.ts, action_id: "go" });
    expect(interactivityOf(h.emulator.state).responseUrls.size).toBe(1);
    expect([...ws.views.triggers.keys()]).toEqual([last.body.trigger_id]);
    // The live one still answers.
    expect((await respondTo(h, last.body.response_url as string, { text: "still here" })).body).toEqual({ ok: true });
  });

  it("forgets a response_url used five times when the next is made", async () => {
    const { h, bot, general } = await setUp();
    const posted = (await h.call("chat.postMessage", { channel: general, text: "press", blocks: JSON.stringify(BUTTON) }, { token: bot })).body;
    const first = (await h.admin("act/click", { channel: general, ts: posted.ts, action_id: "go" })).body.response_url as string;
    for (let i = 0; i < 5; i++) expect((await respondTo(h, first, { text: `answer ${i}` })).status).toBe(200);
    expect((await respondTo(h, first, { text: "one more" })).body).toEqual({ ok: false, error: "used_url" });
    await h.admin("act/click", { channel: general, ts: posted.ts, action_id: "go" });
    const urls = [...interactivityOf(h.emulator.state).responseUrls.values()];
    expect(urls).toHaveLength(1);
    expect(first.endsWith(urls[0]!.id)).toBe(false);
  });

  it("forgets a closed modal and what the member entered in it, and a stopped stream", async () => {
    const { h, bot, ws, general, owner } = await setUp();
    const posted = (await h.call("chat.postMessage", { channel: general, text: "press", blocks: JSON.stringify(BUTTON) }, { token: bot })).body;
    const clicked = await h.admin("act/click", { channel: general, ts: posted.ts, action_id: "go" });
    const modal = {
      type: "modal",
      title: { type: "plain_text", text: "Ask" },
      submit: { type: "plain_text", text: "Send" },
      blocks: [{ type: "input", block_id: "q", label: { type: "plain_text", text: "Q" }, element: { type: "plain_text_input", action_id: "text" } }],
    };
    const opened = (await h.call("views.open", { trigger_id: clicked.body.trigger_id, view: JSON.stringify(modal) }, { token: bot })).body;
    expect(opened.ok).toBe(true);
    const viewId = opened.view.id as string;
    expect(ws.views.views.has(viewId)).toBe(true);
    const typed = await h.admin("act/click", { view_id: viewId, action_id: "text", value: "hello", user: owner });
    expect(typed.body.ok).toBe(true);
    expect(interactivityOf(h.emulator.state).views.has(viewId)).toBe(true);
    expect((await h.admin("act/close-view", { view_id: viewId, user: owner })).body.ok).toBe(true);
    expect(ws.views.views.has(viewId)).toBe(false);
    expect(interactivityOf(h.emulator.state).views.has(viewId)).toBe(false);

    const parent = (await h.call("chat.postMessage", { channel: general, text: "a question" }, { token: bot })).body;
    const started = (
      await h.call(
        "chat.startStream",
        { channel: general, thread_ts: parent.ts, recipient_team_id: ws.team.id, recipient_user_id: owner, markdown_text: "thinking" },
        { token: bot },
      )
    ).body;
    expect(started.ok).toBe(true);
    expect(ws.streams.size).toBe(1);
    expect((await h.call("chat.stopStream", { channel: general, ts: started.ts }, { token: bot })).body.ok).toBe(true);
    expect(ws.streams.size).toBe(0);
    expect((await h.call("chat.appendStream", { channel: general, ts: started.ts, markdown_text: "late" }, { token: bot })).body).toMatchObject({
      ok: false,
      error: "message_not_in_streaming_state",
    });
  });
});

describe("an ephemeral message posted with chat.postEphemeral", () => {
  it("can be clicked: block_actions from an ephemeral container, answered by replace_original and delete_original", async () => {
    const { h, bot, general, second, interactions } = await setUp();
    const posted = (await h.call("chat.postEphemeral", { channel: general, user: second, text: "only you", blocks: JSON.stringify(BUTTON) }, { token: bot }))
      .body;
    expect(posted.ok).toBe(true);
    const clicked = await h.admin("act/click", { channel: general, ts: posted.message_ts, action_id: "go", user: second });
    expect(clicked.body).toMatchObject({ ok: true, outcome: "ok", response_url: expect.any(String) });
    expect(interactions.at(-1)).toMatchObject({
      type: "block_actions",
      user: { id: second },
      container: { type: "message", message_ts: posted.message_ts, channel_id: general, is_ephemeral: true },
      response_url: clicked.body.response_url,
      actions: [{ action_id: "go", value: "now" }],
    });
    // Another member cannot click what only the first was shown.
    expect((await h.admin("act/click", { channel: general, ts: posted.message_ts, action_id: "go" })).status).toBe(404);

    const history = async () => (await h.admin(`workspace/history?channel=${general}&user=${second}`)).body.ephemerals as Json[];
    expect((await respondTo(h, clicked.body.response_url as string, { replace_original: true, text: "done" })).body).toEqual({ ok: true });
    expect((await history()).map((e) => [e.ts, e.text])).toEqual([[posted.message_ts, "done"]]);
    expect((await respondTo(h, clicked.body.response_url as string, { delete_original: true })).body).toEqual({ ok: true });
    expect(await history()).toEqual([]);
    expect(interactivityOf(h.emulator.state).ephemerals.size).toBe(0);
  });
});

describe("what a member does from the admin surface", () => {
  it("posts as a client does: a rich_text block with the mention, and a client_msg_id, in the event and the history", async () => {
    const { h, bot, botUser, general, settle } = await setUp();
    await settle();
    const posted = await h.admin("act/post", { channel: general, text: `hi <@${botUser}> see <https://example.com|this> & more` });
    expect(posted.body.ok).toBe(true);
    const [delivered] = (await settle()).filter((e) => e.event.type === "message");
    const event = delivered!.event as Json;
    expect(event.client_msg_id).toMatch(UUID);
    expect(event.blocks).toEqual([
      {
        type: "rich_text",
        block_id: expect.stringMatching(/^[A-Za-z0-9]{5}$/),
        elements: [
          {
            type: "rich_text_section",
            elements: [
              { type: "text", text: "hi " },
              { type: "user", user_id: botUser },
              { type: "text", text: " see " },
              { type: "link", url: "https://example.com", text: "this" },
              { type: "text", text: " & more" },
            ],
          },
        ],
      },
    ]);
    const read = (await h.call("conversations.history", { channel: general, limit: "1" }, { token: bot })).body.messages as Json[];
    expect(read[0]).toMatchObject({ ts: posted.body.ts, client_msg_id: event.client_msg_id, blocks: event.blocks });
  });

  it("reacts only where the member could: a private channel they are not in is channel_not_found, and no app hears of it", async () => {
    const { h, bot, second, settle } = await setUp();
    const created = (await h.call("conversations.create", { name: "secret", is_private: "true" }, { token: bot })).body;
    expect(created.ok).toBe(true);
    const secret = created.channel.id as string;
    const posted = (await h.call("chat.postMessage", { channel: secret, text: "hidden" }, { token: bot })).body;
    expect(posted.ok).toBe(true);
    await settle();
    const reacted = await h.admin("act/react", { channel: secret, ts: posted.ts, name: "eyes", user: second });
    expect(reacted).toMatchObject({ status: 404, body: { ok: false, error: "channel_not_found" } });
    expect(await settle()).toEqual([]);
    const read = (await h.call("conversations.history", { channel: secret, limit: "1" }, { token: bot })).body.messages as Json[];
    expect(read[0]!.reactions).toBeUndefined();
  });
});
