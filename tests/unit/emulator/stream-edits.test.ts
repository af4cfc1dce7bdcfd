/**
 * chat.appendStream and chat.stopStream edit the streamed message as chat.update does: a subscribed app hears
 * `message_changed` with the message as it is now and as it was. A stream nobody appends to ends by itself
 * after 5 minutes of the emulator's clock (docs/emulator.md, "User groups, assistant threads and streamed
 * messages").
 */
import { describe, expect, it } from "vitest";
import { settleEventDeliveries } from "@/lib/emulator";
import { createHarness, type AdminApp, type Json } from "./support/emulator-harness";
import { answeringChallenges } from "./support/request-url";

const SCOPES = ["channels:history", "channels:join", "chat:write"];
const MINUTE = 60_000;

async function setUp() {
  const delivered: Json[] = [];
  const h = createHarness({
    deliverEvent: answeringChallenges(async (_url, init) => {
      delivered.push(JSON.parse(String(init.body)) as Json);
      return new Response("", { status: 200 });
    }),
  });
  // The app that streams, and another that only listens to the channel's messages.
  for (const name of ["Streamer", "Listener"]) {
    await h.admin("apps", {
      display_information: { name },
      features: { bot_user: { display_name: name.toLowerCase() } },
      oauth_config: { redirect_urls: ["http://localhost:3000/oauth/callback"], scopes: { bot: SCOPES } },
      settings: { event_subscriptions: { request_url: `http://127.0.0.1:3209/${name}/events`, bot_events: ["message.channels"] } },
    });
  }
  const all = (await h.apps()).all as AdminApp[];
  const [streamer, listener] = await Promise.all(
    ["Streamer", "Listener"].map((n) =>
      h.install(
        all.find((a) => a.name === n)!,
        { scope: SCOPES, userScope: [] },
      ),
    ),
  );
  const ws = h.emulator.state.workspace;
  const channel = ws.channels.find((c) => c.isGeneral)!.id;
  for (const installed of [streamer!, listener!]) await h.call("conversations.join", { channel }, { token: installed.access_token });
  const token = streamer!.access_token as string;
  const thread = (await h.call("chat.postMessage", { channel, text: "What is the answer?" }, { token })).body.ts as string;
  const start = async (markdown_text: string) =>
    (
      await h.call(
        "chat.startStream",
        { channel, thread_ts: thread, markdown_text, recipient_team_id: ws.team.id, recipient_user_id: streamer!.authed_user.id },
        { token },
      )
    ).body;
  const settle = async () => {
    await settleEventDeliveries(h.emulator.state);
    return delivered.splice(0);
  };
  await settle();
  return { h, channel, token, listener: listener!, start, settle };
}

describe("a streamed message as apps see it", () => {
  it("sends message_changed for every append and for the stop, with the text as it is now and as it was", async () => {
    const { h, channel, token, listener, start, settle } = await setUp();
    const { ts } = await start("The answer");
    await settle();

    expect((await h.call("chat.appendStream", { channel, ts, markdown_text: " is 42" }, { token })).body.ok).toBe(true);
    const appended = (await settle()).filter((d) => d.api_app_id === listener.app_id);
    expect(appended).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          type: "message",
          subtype: "message_changed",
          channel,
          message: expect.objectContaining({ ts, text: "The answer is 42" }),
          previous_message: expect.objectContaining({ ts, text: "The answer" }),
        }),
      }),
    ]);

    const blocks = [{ type: "section", text: { type: "mrkdwn", text: "Sources: none" } }];
    expect((await h.call("chat.stopStream", { channel, ts, markdown_text: ".", blocks: JSON.stringify(blocks) }, { token })).body.ok).toBe(true);
    const stopped = (await settle()).filter((d) => d.api_app_id === listener.app_id);
    expect(stopped).toHaveLength(1);
    expect(stopped[0]!.event).toMatchObject({
      subtype: "message_changed",
      message: { ts, text: "The answer is 42.", blocks: [expect.objectContaining({ type: "section" })] },
      previous_message: { ts, text: "The answer is 42" },
    });
    // What the channel shows is what the event said.
    const replies = (await h.call("conversations.replies", { channel, ts: stopped[0]!.event.message.thread_ts }, { token })).body.messages as Json[];
    expect(replies.find((m) => m.ts === ts)).toMatchObject({ text: "The answer is 42." });
  });

  it("ends a stream left 5 minutes of the emulator's clock without an append; each append gives it 5 more", async () => {
    const { h, channel, token, start, settle } = await setUp();
    const { ts } = await start("Thinking");
    h.clock.advance(4 * MINUTE);
    expect((await h.call("chat.appendStream", { channel, ts, markdown_text: "." }, { token })).body.ok).toBe(true);
    h.clock.advance(4 * MINUTE);
    expect((await h.call("chat.appendStream", { channel, ts, markdown_text: "." }, { token })).body.ok).toBe(true);
    await settle();

    h.clock.advance(5 * MINUTE);
    expect((await h.call("chat.appendStream", { channel, ts, markdown_text: " late" }, { token })).body.error).toBe("message_not_in_streaming_state");
    expect((await h.call("chat.stopStream", { channel, ts }, { token })).body.error).toBe("message_not_in_streaming_state");
    expect(await settle()).toEqual([]);
    const replies = (await h.call("conversations.replies", { channel, ts }, { token })).body.messages as Json[];
    expect(replies.find((m) => m.ts === ts)?.text).toBe("Thinking..");
  });
});
