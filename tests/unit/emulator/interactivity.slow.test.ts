/**
 * The platform's interactivity rules the Bolt tests do not reach, against an in-process emulator whose app is
 * a request handler (`deliverEvent`: the app's side of the wire, reading what the emulator POSTs and answering
 * as an app would): slash command fields, signing and escaping; the immediate answer shown ephemeral or in
 * the channel; the failures a member meets (timeout, an error status, no Socket Mode connection); response_url
 * uses and lifetime; choices on selects, pickers and checkboxes checked against the blocks; the modal stack
 * (push to 3, update, clear) and view_closed only with notify_on_close.
 */
import { createHmac } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultAppManifests } from "@/lib/emulator/apps/default-apps";
import type { AppManifest } from "@/lib/emulator/types";
import { createHarness, ORIGIN, type AdminApp, type Json } from "./support/emulator-harness";

const APP_URL = "http://app.test";

interface Received {
  url: string;
  headers: Headers;
  body: string;
  form: URLSearchParams;
  payload: Json;
}

let h: ReturnType<typeof createHarness>;
let app: AdminApp;
let botToken = "";
let general = "";
let member = "";
const received: Received[] = [];
/** How the app answers the next requests. */
let reply: (got: Received, init: RequestInit) => Promise<Response> | Response = () => new Response("", { status: 200 });

function manifest(extra: Json = {}): Json {
  return {
    display_information: { name: "Interactive" },
    features: {
      bot_user: { display_name: "interactive" },
      slash_commands: [
        { command: "/echo", url: `${APP_URL}/commands`, description: "Echo", should_escape: false },
        { command: "/escaped", url: `${APP_URL}/commands`, description: "Echo, escaped", should_escape: true },
      ],
      shortcuts: [{ name: "Go", type: "global", callback_id: "go", description: "Go" }],
    },
    oauth_config: {
      redirect_urls: ["http://localhost:3000/oauth/callback"],
      scopes: { bot: ["chat:write", "channels:join", "channels:history", "channels:manage", "commands"] },
    },
    settings: { interactivity: { is_enabled: true, request_url: `${APP_URL}/interactive`, message_menu_options_url: `${APP_URL}/options` }, ...extra },
  };
}

async function respondTo(url: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await h.emulator.fetch(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return { status: response.status, body: (await response.json()) as Json };
}

async function history(): Promise<Json[]> {
  return (await h.call("conversations.history", { channel: general, limit: "50" }, { token: botToken })).body.messages as Json[];
}

const BLOCKS = [
  { type: "section", block_id: "s", text: { type: "mrkdwn", text: "Pick" }, accessory: { type: "datepicker", action_id: "when" } },
  {
    type: "actions",
    block_id: "a",
    elements: [
      { type: "static_select", action_id: "size", options: ["s", "m", "l"].map((v) => ({ text: { type: "plain_text", text: v }, value: v })) },
      { type: "checkboxes", action_id: "extras", options: ["cheese", "ham"].map((v) => ({ text: { type: "plain_text", text: v }, value: v })) },
      { type: "button", action_id: "go", value: "now", text: { type: "plain_text", text: "Go" } },
    ],
  },
];

beforeEach(async () => {
  received.length = 0;
  reply = () => new Response("", { status: 200 });
  h = createHarness({
    deliverEvent: async (url, init) => {
      const body = String(init.body);
      const form = new URLSearchParams(body);
      const got: Received = {
        url,
        headers: new Headers(init.headers),
        body,
        form,
        payload: form.has("payload") ? (JSON.parse(form.get("payload")!) as Json) : {},
      };
      received.push(got);
      return reply(got, init);
    },
  });
  const created = await h.admin("apps", manifest());
  app = created.body.app as AdminApp;
  const access = await h.install(app, {
    scope: ["chat:write", "channels:join", "channels:history", "channels:manage", "commands"],
    userScope: [],
  });
  botToken = access.bot_user_id ? access.access_token : "";
  member = access.authed_user.id;
  general = h.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
  expect((await h.call("conversations.join", { channel: general }, { token: botToken })).body.ok).toBe(true);
});

describe("slash commands", () => {
  it("posts the platform's fields, form-encoded and signed with the app's signing secret, to the command's URL", async () => {
    const ran = await h.admin("act/command", { command: "/echo", text: `hi <@${member}> in <#${general}>`, channel: general });
    expect(ran.body).toMatchObject({ ok: true, outcome: "ok", via: "http", url: `${APP_URL}/commands`, status: 200 });
    const got = received[0]!;
    expect(got.url).toBe(`${APP_URL}/commands`);
    const timestamp = got.headers.get("x-slack-request-timestamp");
    const expected = `v0=${createHmac("sha256", app.signing_secret).update(`v0:${timestamp}:${got.body}`).digest("hex")}`;
    expect(got.headers.get("x-slack-signature")).toBe(expected);
    expect(Object.fromEntries(got.form)).toMatchObject({
      command: "/echo",
      channel_id: general,
      channel_name: "general",
      user_id: member,
      team_id: h.emulator.state.workspace.team.id,
      api_app_id: app.app_id,
      trigger_id: ran.body.trigger_id,
      response_url: ran.body.response_url,
    });
    // should_escape off: mentions and channels arrive as plain names.
    expect(got.form.get("text")).toMatch(/^hi @[a-z.0-9]+ in #general$/);
    await h.admin("act/command", { command: "/escaped", text: `hi <@${member}>`, channel: general });
    expect(received[1]!.form.get("text")).toMatch(new RegExp(`^hi <@${member}\\|[a-z.0-9]+>$`));
    // Listed, the record shows the response_url cut short: it can post for 30 minutes.
    const listed = ((await h.admin("interactions")).body.interactions as Json[]).at(-1)!;
    expect(listed.payload.response_url).not.toBe(ran.body.response_url);
    expect(ran.body.response_url.startsWith(listed.payload.response_url.slice(0, -1))).toBe(true);
    expect(await h.admin("act/command", { command: "/echo", channel: general, team_id: "T0NOWHERE" })).toMatchObject({
      status: 404,
      body: { error: "team_not_found" },
    });
  });

  it("shows the immediate answer to the member alone by default, and in the channel with response_type in_channel", async () => {
    reply = () => Response.json({ text: "only you can see this" });
    const ephemeral = await h.admin("act/command", { command: "/echo", text: "a", channel: general });
    expect(ephemeral.body).toMatchObject({
      outcome: "ephemeral",
      answer: { text: "only you can see this" },
      result: { message: { text: "only you can see this", user: member } },
    });
    expect((await history()).map((m) => m.text)).not.toContain("only you can see this");

    reply = () => Response.json({ response_type: "in_channel", text: "everyone sees this" });
    const shared = await h.admin("act/command", { command: "/echo", text: "b", channel: general });
    expect(shared.body).toMatchObject({ outcome: "in_channel" });
    expect((await history()).find((m) => m.text === "everyone sees this")).toMatchObject({ bot_id: expect.any(String), app_id: app.app_id });

    reply = () => new Response("plain words", { headers: { "content-type": "text/plain" } });
    expect((await h.admin("act/command", { command: "/echo", channel: general })).body).toMatchObject({
      outcome: "ephemeral",
      result: { message: { text: "plain words" } },
    });
  });

  it("records what a member meets when the app fails: an error status, no answer in 3 seconds", async () => {
    reply = () => new Response("boom", { status: 500 });
    expect((await h.admin("act/command", { command: "/echo", channel: general })).body).toMatchObject({ ok: true, outcome: "http_service_error", status: 500 });

    reply = (_got, init) => new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    const started = Date.now();
    const slow = await h.admin("act/command", { command: "/echo", channel: general });
    expect(slow.body).toMatchObject({ ok: true, outcome: "operation_timeout" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    const { body } = await h.admin("interactions");
    expect((body.interactions as Json[]).map((i) => i.outcome)).toEqual(["operation_timeout", "http_service_error"]);
  }, 10_000);

  it("refuses a command no installed app declares, and a member outside the channel", async () => {
    expect(await h.admin("act/command", { command: "/nothing", channel: general })).toMatchObject({ status: 404, body: { error: "command_not_found" } });
    const privateChannel = await h.call("conversations.create", { name: "secret", is_private: "true" }, { token: botToken });
    expect(privateChannel.body.ok).toBe(true);
    expect(await h.admin("act/command", { command: "/echo", channel: privateChannel.body.channel.id })).toMatchObject({
      status: 409,
      body: { error: "not_in_channel" },
    });
    expect(received).toEqual([]);
  });

  it("fails at once with dispatch_failed in Socket Mode when the app has no connection open", async () => {
    await h.admin("apps", { app_id: app.app_id, manifest: manifest({ socket_mode_enabled: true }) });
    const started = Date.now();
    const ran = await h.admin("act/command", { command: "/echo", channel: general });
    expect(ran.body).toMatchObject({ ok: true, outcome: "dispatch_failed", via: "socket" });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("where the emulator may POST", () => {
  const CONSOLE = "http://console.test/api/events";

  it("refuses a manifest whose command, interactivity or options URL it may not send to, when it is saved, with where each is", async () => {
    const guarded = createHarness({ eventRequestUrls: [CONSOLE] });
    const expected = [
      "/features/slash_commands/0/url",
      "/features/slash_commands/1/url",
      "/settings/interactivity/request_url",
      "/settings/interactivity/message_menu_options_url",
    ].map((pointer) => ({ message: `This emulator sends interactions only to ${CONSOLE}.`, pointer }));
    const saved = await guarded.admin("apps", manifest());
    expect(saved).toEqual({ status: 400, body: { ok: false, error: "invalid_manifest", errors: expected } });
    expect([...guarded.emulator.state.apps.values()].map((a) => a.name)).not.toContain("Interactive");

    // apps.manifest.create answers the same, with the platform's HTTP 200.
    const { body: tokens } = await guarded.admin("config-tokens", {});
    const created = await guarded.call("apps.manifest.create", { manifest: JSON.stringify(manifest()) }, { token: tokens.token });
    expect(created).toMatchObject({ status: 200, body: { ok: false, error: "invalid_manifest", errors: expected } });

    // Aimed at the URL it may send to, the manifest is saved.
    const allowed = manifest();
    allowed.features.slash_commands = allowed.features.slash_commands.map((c: Json) => ({ ...c, url: CONSOLE }));
    allowed.settings.interactivity = { is_enabled: true, request_url: CONSOLE, message_menu_options_url: CONSOLE };
    expect((await guarded.admin("apps", allowed)).body).toMatchObject({ ok: true, created: true });
  });

  it("still sends an interaction to no URL but those it may deliver to, for an app configured at start", async () => {
    const sent: string[] = [];
    const guarded = createHarness({
      eventRequestUrls: [CONSOLE],
      apps: [...defaultAppManifests(), manifest() as AppManifest],
      deliverEvent: async (url) => (sent.push(url), new Response("")),
    });
    const made = (await guarded.apps()).all.find((a) => a.name === "Interactive")!;
    await guarded.install(made, { scope: ["chat:write", "commands"], userScope: [] });
    const channel = guarded.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
    const ran = await guarded.admin("act/command", { command: "/echo", channel });
    expect(ran.body).toMatchObject({ ok: true, outcome: "url_not_allowed", url: `${APP_URL}/commands` });
    expect(sent).toEqual([]);
  });
});

describe("the records", () => {
  it("are saved with the event log: a restart on the data directory lists them again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "interactions-"));
    try {
      const deliverEvent = async () => Response.json({ text: "saved" });
      const first = createHarness({ dataDir: dir, deliverEvent });
      const made = await first.admin("apps", manifest());
      await first.install(made.body.app as AdminApp, { scope: ["chat:write", "commands"], userScope: [] });
      const channel = first.emulator.state.workspace.channels.find((c) => c.isGeneral)!.id;
      const ran = await first.admin("act/command", { command: "/echo", text: "keep me", channel });
      expect(ran.body).toMatchObject({ outcome: "ephemeral" });
      await first.emulator.close();
      const again = createHarness({ dataDir: dir, deliverEvent });
      const listed = (await again.admin("interactions")).body.interactions as Json[];
      expect(listed).toEqual([expect.objectContaining({ interaction_id: ran.body.interaction_id, outcome: "ephemeral", answer: { text: "saved" } })]);
      expect(listed[0]!.payload.text).toBe("keep me");
      await again.emulator.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("response_url", () => {
  it("takes 5 messages, then answers used_url; ephemeral by default, in_channel and thread_ts when asked", async () => {
    const { body } = await h.admin("act/command", { command: "/echo", channel: general });
    const url = body.response_url as string;
    expect(await respondTo(url, { text: "one" })).toEqual({ status: 200, body: { ok: true } });
    expect(await respondTo(url, { text: "two", response_type: "in_channel" })).toEqual({ status: 200, body: { ok: true } });
    const posted = (await history()).find((m) => m.text === "two")!;
    expect(posted).toMatchObject({ app_id: app.app_id });
    expect(await respondTo(url, { text: "three", response_type: "in_channel", thread_ts: posted.ts })).toMatchObject({ status: 200 });
    expect(await respondTo(url, { text: "four" })).toMatchObject({ status: 200 });
    expect(await respondTo(url, { text: "five" })).toMatchObject({ status: 200 });
    expect(await respondTo(url, { text: "six" })).toEqual({ status: 404, body: { ok: false, error: "used_url" } });
    const texts = (await history()).map((m) => m.text);
    expect(texts).toContain("two");
    expect(texts).not.toContain("one");
    const thread = await h.call("conversations.replies", { channel: general, ts: posted.ts }, { token: botToken });
    expect((thread.body.messages as Json[]).map((m) => m.text)).toEqual(["two", "three"]);
  });

  it("expires after 30 minutes of the emulator's clock; refuses a URL it never handed out and a message without text", async () => {
    const { body } = await h.admin("act/command", { command: "/echo", channel: general });
    expect(await respondTo(body.response_url, {})).toEqual({ status: 400, body: { ok: false, error: "no_text" } });
    h.clock.advance(30 * 60 * 1000);
    expect(await respondTo(body.response_url, { text: "late" })).toEqual({ status: 404, body: { ok: false, error: "expired_url" } });
    expect(await respondTo(`${ORIGIN}/commands/T000/1/nope`, { text: "x" })).toEqual({ status: 404, body: { ok: false, error: "no_service" } });
  });

  it("replaces and deletes the message a button was clicked in", async () => {
    const posted = await h.call("chat.postMessage", { channel: general, text: "pick", blocks: JSON.stringify(BLOCKS) }, { token: botToken });
    const clicked = await h.admin("act/click", { channel: general, ts: posted.body.ts, action_id: "go" });
    expect(clicked.body).toMatchObject({ ok: true, outcome: "ok" });
    expect(await respondTo(clicked.body.response_url, { replace_original: true, text: "done" })).toMatchObject({ status: 200 });
    expect((await history()).find((m) => m.ts === posted.body.ts)).toMatchObject({ text: "done", edited: expect.any(Object) });
    expect(await respondTo(clicked.body.response_url, { delete_original: true })).toMatchObject({ status: 200 });
    expect((await history()).find((m) => m.ts === posted.body.ts)).toBeUndefined();
  });
});

describe("block_actions", () => {
  it("sends the choice on a select, checkboxes or a date picker, with state.values, checked against the blocks", async () => {
    const posted = await h.call("chat.postMessage", { channel: general, text: "pick", blocks: JSON.stringify(BLOCKS) }, { token: botToken });
    const ts = posted.body.ts as string;
    await h.admin("act/click", { channel: general, ts, action_id: "size", value: "m" });
    const select = received.at(-1)!;
    expect(select.url).toBe(`${APP_URL}/interactive`);
    expect(select.payload).toMatchObject({
      type: "block_actions",
      container: { type: "message", message_ts: ts, channel_id: general, is_ephemeral: false },
      actions: [{ type: "static_select", action_id: "size", block_id: "a", selected_option: { value: "m", text: { text: "m" } } }],
      state: { values: { a: { size: { type: "static_select", selected_option: { value: "m" } }, extras: { type: "checkboxes", selected_options: [] } } } },
      message: { ts, text: "pick" },
      channel: { id: general, name: "general" },
      user: { id: member },
    });
    await h.admin("act/click", { channel: general, ts, action_id: "extras", value: ["ham", "cheese"] });
    expect(received.at(-1)!.payload.actions[0].selected_options.map((o: Json) => o.value)).toEqual(["ham", "cheese"]);
    await h.admin("act/click", { channel: general, ts, action_id: "when", value: "2026-12-24" });
    expect(received.at(-1)!.payload.actions[0]).toMatchObject({ type: "datepicker", block_id: "s", selected_date: "2026-12-24" });

    expect(await h.admin("act/click", { channel: general, ts, action_id: "size", value: "xl" })).toMatchObject({
      status: 400,
      body: { error: "invalid_choice" },
    });
    expect(await h.admin("act/click", { channel: general, ts, action_id: "when", value: "tomorrow" })).toMatchObject({
      status: 400,
      body: { error: "invalid_choice" },
    });
    expect(await h.admin("act/click", { channel: general, ts, action_id: "nope" })).toMatchObject({ status: 404, body: { error: "action_not_found" } });
    expect(received).toHaveLength(3);
  });
});

describe("external selects", () => {
  it("sends a pick as the app offered it in block_suggestion, its text too", async () => {
    const blocks = [{ type: "actions", block_id: "p", elements: [{ type: "external_select", action_id: "project", min_query_length: 0 }] }];
    const posted = await h.call("chat.postMessage", { channel: general, text: "project?", blocks: JSON.stringify(blocks) }, { token: botToken });
    const ts = posted.body.ts as string;
    const offered = { text: { type: "plain_text", text: "Platform team", emoji: true }, value: "platform", description: { type: "plain_text", text: "core" } };
    reply = () => Response.json({ option_groups: [{ label: { type: "plain_text", text: "Teams" }, options: [offered] }] });
    const suggested = await h.admin("act/suggest", { channel: general, ts, action_id: "project", value: "pla" });
    expect(suggested.body).toMatchObject({ outcome: "options" });
    expect(received.at(-1)!.url).toBe(`${APP_URL}/options`);
    reply = () => new Response("", { status: 200 });
    await h.admin("act/click", { channel: general, ts, action_id: "project", value: "platform" });
    expect(received.at(-1)!.payload.actions[0]).toMatchObject({ type: "external_select", selected_option: offered });
    expect(received.at(-1)!.payload.state.values.p.project.selected_option).toEqual(offered);
    // A value the app never offered here is taken as given, its text made from it.
    await h.admin("act/click", { channel: general, ts, action_id: "project", value: "mobile" });
    expect(received.at(-1)!.payload.actions[0].selected_option).toEqual({ text: { type: "plain_text", text: "mobile", emoji: true }, value: "mobile" });
  });
});

describe("block_actions on an ephemeral message and in a modal", () => {
  it("reaches the app from a button in the ephemeral answer of a command, marked is_ephemeral, and its response_url replaces it", async () => {
    reply = () => Response.json({ text: "only you", blocks: BLOCKS });
    const ran = await h.admin("act/command", { command: "/echo", channel: general });
    const shown = ran.body.result.message as Json;
    reply = () => new Response("");
    const clicked = await h.admin("act/click", { channel: general, ts: shown.ts, action_id: "go" });
    expect(clicked.body).toMatchObject({ ok: true, outcome: "ok" });
    expect(received.at(-1)!.payload).toMatchObject({
      container: { type: "message", message_ts: shown.ts, is_ephemeral: true },
      actions: [{ action_id: "go", value: "now" }],
    });
    expect(await respondTo(clicked.body.response_url, { replace_original: true, text: "gone" })).toMatchObject({ status: 200 });
    // It never was in the channel's history.
    expect((await history()).map((m) => m.ts)).not.toContain(shown.ts);
  });
});

describe("modals", () => {
  const modal = (title: string, extra: Json = {}) => ({
    type: "modal",
    callback_id: `cb-${title}`,
    private_metadata: `meta-${title}`,
    title: { type: "plain_text", text: title },
    blocks: [{ type: "input", block_id: "b", label: { type: "plain_text", text: "Name" }, element: { type: "plain_text_input", action_id: "name" } }],
    ...extra,
  });

  async function openModal(view: Json): Promise<string> {
    const { body } = await h.admin("act/command", { command: "/echo", channel: general });
    const opened = await h.call("views.open", { trigger_id: body.trigger_id, view: JSON.stringify(view) }, { token: botToken });
    expect(opened.body.ok).toBe(true);
    return opened.body.view.id;
  }

  const stack = async () => ((await h.admin(`views?user=${member}`)).body.modals as Json[]).map((v) => v.callback_id);

  it("honours push (3 views at most), update and clear, carrying callback_id, private_metadata and state.values", async () => {
    const root = await openModal(modal("one"));
    reply = () => Response.json({ response_action: "push", view: modal("two") });
    const pushed = await h.admin("act/submit", { view_id: root, values: { b: { name: "Ada" } } });
    expect(pushed.body).toMatchObject({ outcome: "push", result: { view: { callback_id: "cb-two", root_view_id: root, previous_view_id: root } } });
    expect(received.at(-1)!.payload).toMatchObject({
      type: "view_submission",
      view: { id: root, callback_id: "cb-one", private_metadata: "meta-one", state: { values: { b: { name: { type: "plain_text_input", value: "Ada" } } } } },
    });
    reply = () => Response.json({ response_action: "push", view: modal("three") });
    const third = await h.admin("act/submit", { view_id: pushed.body.result.view.id });
    expect(await stack()).toEqual(["cb-one", "cb-two", "cb-three"]);
    const refused = await h.admin("act/submit", { view_id: third.body.result.view.id });
    expect(refused.body).toMatchObject({ outcome: "push_limit_reached" });

    reply = () => Response.json({ response_action: "update", view: modal("three-b") });
    const updated = await h.admin("act/submit", { view_id: third.body.result.view.id });
    expect(updated.body.result.view).toMatchObject({ id: third.body.result.view.id, callback_id: "cb-three-b" });
    expect(updated.body.result.view.hash).not.toBe(third.body.result.view.hash);
    // Only the view on top can be submitted.
    expect(await h.admin("act/submit", { view_id: root })).toMatchObject({ status: 409, body: { error: "view_not_on_top" } });

    reply = () => new Response("", { status: 200 });
    expect((await h.admin("act/submit", { view_id: third.body.result.view.id })).body).toMatchObject({ outcome: "closed" });
    expect(await stack()).toEqual(["cb-one", "cb-two"]);
    reply = () => Response.json({ response_action: "clear" });
    expect((await h.admin("act/submit", { view_id: pushed.body.result.view.id })).body).toMatchObject({ outcome: "clear" });
    expect(await stack()).toEqual([]);
  });

  it("refuses a view answered with update or push as views.update and views.push would: the modal stays, the refusal is recorded", async () => {
    const root = await openModal(modal("one"));
    const before = (await h.admin(`views?user=${member}`)).body.modals as Json[];
    const badBlocks = modal("bad", { blocks: [{ type: "bogus" }, { type: "section" }] });
    for (const response_action of ["update", "push"]) {
      reply = () => Response.json({ response_action, view: badBlocks });
      const refused = await h.admin("act/submit", { view_id: root, values: { b: { name: "Ada" } } });
      expect(refused.body).toMatchObject({
        ok: true,
        outcome: "invalid_view",
        result: {
          error: "invalid_arguments",
          response_metadata: {
            messages: [
              "[ERROR] unsupported type: bogus [json-pointer:/view/blocks/0/type]",
              "[ERROR] must define either `text` or `fields` [json-pointer:/view/blocks/1/type]",
            ],
          },
        },
      });
      // The same view through views.update is refused with the same messages.
      const direct = await h.call("views.update", { view_id: root, view: JSON.stringify(badBlocks) }, { token: botToken });
      expect(direct.body.response_metadata.messages).toEqual(refused.body.result.response_metadata.messages);
    }
    // A title past 24 characters: the views' own check, not Block Kit's.
    reply = () => Response.json({ response_action: "update", view: modal("a title far longer than the platform allows") });
    const longTitle = await h.admin("act/submit", { view_id: root });
    expect(longTitle.body).toMatchObject({ outcome: "invalid_view", result: { error: "invalid_arguments" } });
    expect(longTitle.body.result.response_metadata.messages).toEqual(["[ERROR] must be less than 25 characters [json-pointer:/view/title/text]"]);

    const after = (await h.admin(`views?user=${member}`)).body.modals as Json[];
    expect(after.map((v) => [v.id, v.hash, v.callback_id])).toEqual(before.map((v) => [v.id, v.hash, v.callback_id]));
    const recorded = (await h.admin("interactions")).body.interactions as Json[];
    expect(recorded.slice(0, 3).map((r) => r.outcome)).toEqual(["invalid_view", "invalid_view", "invalid_view"]);
  });

  it("keeps a choice made in a modal (block_actions from the view) for its submission, and its trigger pushes onto the modal", async () => {
    const withSelect = modal("pick", {
      blocks: [
        {
          type: "input",
          block_id: "size_block",
          label: { type: "plain_text", text: "Size" },
          dispatch_action: true,
          element: { type: "static_select", action_id: "size", options: ["s", "m"].map((v) => ({ text: { type: "plain_text", text: v }, value: v })) },
        },
      ],
    });
    const root = await openModal(withSelect);
    const clicked = await h.admin("act/click", { view_id: root, action_id: "size", value: "m" });
    expect(received.at(-1)!.payload).toMatchObject({
      container: { type: "view", view_id: root },
      view: { id: root, state: { values: { size_block: { size: { type: "static_select", selected_option: { value: "m" } } } } } },
    });
    expect(clicked.body.response_url).toBeUndefined();
    const pushed = await h.call("views.push", { trigger_id: clicked.body.trigger_id, view: JSON.stringify(modal("second")) }, { token: botToken });
    expect(pushed.body).toMatchObject({ ok: true, view: { previous_view_id: root } });
    reply = () => new Response("");
    await h.admin("act/submit", { view_id: pushed.body.view.id });
    await h.admin("act/submit", { view_id: root });
    expect(received.at(-1)!.payload.view.state.values).toEqual({
      size_block: { size: { type: "static_select", selected_option: { text: { type: "plain_text", text: "m" }, value: "m" } } },
    });
  });

  it("Back closes only the pushed view (view_closed, is_cleared false), the root keeping the values its submit recorded; clear closes them all", async () => {
    const root = await openModal(modal("first"));
    reply = () => Response.json({ response_action: "push", view: modal("details", { notify_on_close: true }) });
    const pushed = (await h.admin("act/submit", { view_id: root, values: { b: { name: "Ada" } } })).body.result.view.id as string;
    expect(await stack()).toEqual(["cb-first", "cb-details"]);
    // Back: close-view without clear, on the view on top.
    reply = () => new Response("");
    const back = await h.admin("act/close-view", { view_id: pushed });
    expect(back.body).toMatchObject({ ok: true, view_id: pushed, notified: true, outcome: "ok" });
    expect(received.at(-1)!.payload).toMatchObject({ type: "view_closed", is_cleared: false, view: { id: pushed, root_view_id: root } });
    const views = (await h.admin(`views?user=${member}`)).body.modals as Json[];
    expect(views.map((v) => v.id)).toEqual([root]);
    expect(views[0]!.state.values).toMatchObject({ b: { name: { type: "plain_text_input", value: "Ada" } } });

    // The ✕ on a pushed view: clear, every view of the stack goes.
    reply = () => Response.json({ response_action: "push", view: modal("details", { notify_on_close: true }) });
    const again = (await h.admin("act/submit", { view_id: root })).body.result.view.id as string;
    reply = () => new Response("");
    expect((await h.admin("act/close-view", { view_id: again, clear: true })).body).toMatchObject({ ok: true, notified: true });
    expect(received.at(-1)!.payload).toMatchObject({ type: "view_closed", is_cleared: true, view: { id: again } });
    expect(await stack()).toEqual([]);
  });

  it("clearing a stack tells the app once when any cleared view asked: of the topmost that asked, the root when only it did", async () => {
    const root = await openModal(modal("root", { notify_on_close: true }));
    reply = () => Response.json({ response_action: "push", view: modal("quiet-top") });
    const pushed = (await h.admin("act/submit", { view_id: root })).body.result.view.id as string;
    reply = () => new Response("");
    const before = received.length;
    const cleared = await h.admin("act/close-view", { view_id: pushed, clear: true });
    expect(cleared.body).toMatchObject({ ok: true, notified: true, type: "view_closed" });
    const told = received.slice(before).filter((r) => r.payload.type === "view_closed");
    expect(told.map((r) => [r.payload.view.id, r.payload.view.callback_id, r.payload.is_cleared])).toEqual([[root, "cb-root", true]]);
    expect(await stack()).toEqual([]);

    // Both asked: one view_closed, of the view the member closed (on top).
    const second = await openModal(modal("root", { notify_on_close: true }));
    reply = () => Response.json({ response_action: "push", view: modal("loud-top", { notify_on_close: true }) });
    const loudTop = (await h.admin("act/submit", { view_id: second })).body.result.view.id as string;
    reply = () => new Response("");
    const mark = received.length;
    await h.admin("act/close-view", { view_id: loudTop, clear: true });
    expect(received.slice(mark).map((r) => [r.payload.type, r.payload.view.id, r.payload.is_cleared])).toEqual([["view_closed", loudTop, true]]);
  });

  it("sends view_closed only for a view that asked (notify_on_close)", async () => {
    const quiet = await openModal(modal("quiet"));
    expect((await h.admin("act/close-view", { view_id: quiet })).body).toEqual({ ok: true, view_id: quiet, notified: false });
    expect(received.filter((r) => r.payload.type === "view_closed")).toEqual([]);
    const loud = await openModal(modal("loud", { notify_on_close: true }));
    const closed = await h.admin("act/close-view", { view_id: loud });
    expect(closed.body).toMatchObject({ ok: true, notified: true, type: "view_closed", outcome: "ok" });
    expect(received.at(-1)!.payload).toMatchObject({ type: "view_closed", is_cleared: false, view: { id: loud, callback_id: "cb-loud" } });
    expect(await stack()).toEqual([]);
  });
});
