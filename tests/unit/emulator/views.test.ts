/**
 * views.open, views.push, views.update, views.publish, and the trigger ids that open modals
 * (POST /admin/triggers stands for an interaction until the emulator has them).
 */
import { describe, expect, it } from "vitest";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import { createHarness, type AdminApp, type Harness, type Json } from "./support/emulator-harness";

const modal = (title = "Quite a plain modal", extra: Json = {}) =>
  JSON.stringify({
    type: "modal",
    title: { type: "plain_text", text: title },
    submit: { type: "plain_text", text: "Create" },
    blocks: [{ type: "input", label: { type: "plain_text", text: "A label" }, element: { type: "plain_text_input", action_id: "an_action_id" } }],
    callback_id: "identify_your_modals",
    private_metadata: "Shh it is a secret",
    ...extra,
  });

const home = (text: string, extra: Json = {}) => JSON.stringify({ type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text } }], ...extra });

async function setUp(): Promise<{ h: Harness; app: AdminApp; token: string; userToken: string; user: string }> {
  const h = createHarness();
  const { rotation } = await h.apps();
  const grant = await h.install(rotation, { scope: ["chat:write"], userScope: ["users:read"] });
  return { h, app: rotation, token: grant.access_token, userToken: grant.authed_user.access_token, user: grant.authed_user.id };
}

async function trigger(h: Harness, app: AdminApp, extra: Json = {}): Promise<string> {
  const { status, body } = await h.admin("triggers", { app_id: app.app_id, ...extra });
  expect(status).toBe(200);
  return body.trigger_id as string;
}

describe("POST /admin/triggers", () => {
  it("issues a trigger id of the platform's shape for an app and a member, good for 3 seconds", async () => {
    const { h, app, user } = await setUp();
    const { body } = await h.admin("triggers", { app_id: app.app_id });
    expect(body).toMatchObject({ ok: true, app_id: app.app_id, team_id: h.emulator.state.workspace.team.id, user_id: user, view_id: null, expires_in: 3 });
    expect(body.trigger_id).toMatch(/^\d+\.\d+\.[0-9a-f]{32}$/);
  });

  it("refuses an app that is not installed, an unknown member and a view that is not that member's modal", async () => {
    const { h, app } = await setUp();
    expect((await h.admin("triggers", { app_id: "A0NOPE" })).status).toBe(404);
    expect((await h.admin("triggers", { app_id: app.app_id, user: "U0NOPE" })).body.error).toBe("user_not_found");
    expect((await h.admin("triggers", { app_id: app.app_id, view_id: "V0NOPE" })).body.error).toBe("view_not_found");
    expect((await h.admin("triggers", {})).status).toBe(400);
  });
});

describe("views.open", () => {
  it("opens a modal for the trigger's member and answers the platform's view object", async () => {
    const { h, app, token } = await setUp();
    const { body } = await h.call("views.open", { trigger_id: await trigger(h, app), view: modal() }, { token });
    expect(body.ok).toBe(true);
    const view = body.view as Json;
    expect(view).toMatchObject({
      team_id: h.emulator.state.workspace.team.id,
      type: "modal",
      title: { type: "plain_text", text: "Quite a plain modal" },
      submit: { type: "plain_text", text: "Create" },
      close: null,
      callback_id: "identify_your_modals",
      private_metadata: "Shh it is a secret",
      external_id: "",
      state: { values: {} },
      clear_on_close: false,
      notify_on_close: false,
      previous_view_id: null,
      app_id: app.app_id,
    });
    expect(view.id).toMatch(/^V0[0-9A-Z]{9}$/);
    expect(view.root_view_id).toBe(view.id);
    expect(view.hash).toMatch(/^\d+\.[0-9a-f]{8}$/);
    expect(view.bot_id).toMatch(/^B/);
    // The platform gives a block without a block_id one of its own.
    expect(view.blocks[0].block_id).toEqual(expect.any(String));
  });

  it("takes a JSON body, as the platform does for the views methods", async () => {
    const { h, app, token } = await setUp();
    const { body } = await h.call("views.open", { trigger_id: await trigger(h, app), view: JSON.parse(modal()) }, { token, json: true });
    expect(body).toMatchObject({ ok: true, view: { type: "modal" } });
  });

  it("exchanges a trigger once, within 3 seconds, for the app it was issued to", async () => {
    const { h, app, token } = await setUp();
    const once = await trigger(h, app);
    expect((await h.call("views.open", { trigger_id: once, view: modal() }, { token })).body.ok).toBe(true);
    expect((await h.call("views.open", { trigger_id: once, view: modal() }, { token })).body.error).toBe("exchanged_trigger_id");

    const late = await trigger(h, app);
    h.clock.advance(3000);
    expect((await h.call("views.open", { trigger_id: late, view: modal() }, { token })).body.error).toBe("expired_trigger_id");

    expect((await h.call("views.open", { trigger_id: "not-a-trigger", view: modal() }, { token })).body.error).toBe("invalid_trigger_id");
    expect((await h.call("views.open", { trigger_id: "12345.98765.abcd2358fdea", view: modal() }, { token })).body.error).toBe("invalid_trigger_id");

    const { legacy } = await h.apps();
    const other = await h.install(legacy, { scope: ["chat:write"], userScope: [] });
    const theirs = await trigger(h, legacy);
    expect((await h.call("views.open", { trigger_id: theirs, view: modal() }, { token })).body.error).toBe("invalid_trigger_id");
    expect((await h.call("views.open", { trigger_id: theirs, view: modal() }, { token: other.access_token })).body.ok).toBe(true);

    expect((await h.call("views.open", { view: modal() }, { token })).body).toMatchObject({
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] missing required field: trigger_id"] },
    });
  });

  it("refuses a view the platform refuses, with json-pointer messages, and leaves the trigger usable", async () => {
    const { h, app, token } = await setUp();
    const id = await trigger(h, app);
    const refused = async (view: string) => (await h.call("views.open", { trigger_id: id, view }, { token })).body;

    expect(await refused(modal("x".repeat(25)))).toMatchObject({
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] must be less than 25 characters [json-pointer:/view/title/text]"] },
    });
    const blocks = Array.from({ length: 101 }, () => ({ type: "divider" }));
    expect((await refused(modal("ok", { blocks }))).response_metadata.messages).toEqual(["[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]"]);
    expect((await refused(modal("ok", { private_metadata: "m".repeat(3001) }))).response_metadata.messages).toEqual([
      "[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]",
    ]);
    expect((await refused(modal("ok", { callback_id: "c".repeat(256) }))).response_metadata.messages).toEqual([
      "[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]",
    ]);
    expect((await refused(JSON.stringify({ type: "modal", blocks: [] }))).response_metadata.messages).toEqual([
      "[ERROR] missing required field: title [json-pointer:/view]",
    ]);
    expect((await refused(home("a home is published, not opened"))).error).toBe("invalid_arguments");
    expect((await refused("{not json")).error).toBe("invalid_arguments");
    expect((await h.call("views.open", { trigger_id: id }, { token })).body.error).toBe("invalid_arguments");
    expect((await refused(modal("ok", { private_metadata: "p".repeat(260_000) }))).error).toBe("view_too_large");

    expect((await h.call("views.open", { trigger_id: id, view: modal() }, { token })).body.ok).toBe(true);
  });

  it("keeps external_id unique among the app's views: duplicate_external_id", async () => {
    const { h, app, token } = await setUp();
    const first = await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("one", { external_id: "order-42" }) }, { token });
    expect(first.body.view.external_id).toBe("order-42");
    const second = await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("two", { external_id: "order-42" }) }, { token });
    expect(second.body.error).toBe("duplicate_external_id");
  });
});

describe("views.update", () => {
  it("replaces a view by view_id or external_id, with a new hash, keeping its id and stack", async () => {
    const { h, app, token } = await setUp();
    const opened = (await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("first", { external_id: "ext-1" }) }, { token })).body.view;

    const byId = (await h.call("views.update", { view_id: opened.id, hash: opened.hash, view: modal("second", { external_id: "ext-1" }) }, { token })).body;
    expect(byId).toMatchObject({ ok: true, view: { id: opened.id, root_view_id: opened.id, title: { text: "second" }, external_id: "ext-1" } });
    h.clock.advance(1000);
    const byExternal = (await h.call("views.update", { external_id: "ext-1", view: modal("third", { external_id: "ext-1" }) }, { token })).body;
    expect(byExternal).toMatchObject({ ok: true, view: { id: opened.id, title: { text: "third" } } });
    expect(byExternal.view.hash).not.toBe(byId.view.hash);
  });

  it("answers hash_conflict for a stale hash, not_found for an unknown view or another app's, and invalid_arguments without either id", async () => {
    const { h, app, token } = await setUp();
    const opened = (await h.call("views.open", { trigger_id: await trigger(h, app), view: modal() }, { token })).body.view;
    expect((await h.call("views.update", { view_id: opened.id, hash: opened.hash, view: modal("fresh") }, { token })).body.ok).toBe(true);
    expect((await h.call("views.update", { view_id: opened.id, hash: opened.hash, view: modal("stale") }, { token })).body.error).toBe("hash_conflict");
    expect((await h.call("views.update", { view_id: "V0NOTAVIEW", view: modal() }, { token })).body.error).toBe("not_found");
    expect((await h.call("views.update", { external_id: "nobody", view: modal() }, { token })).body.error).toBe("not_found");
    expect((await h.call("views.update", { view: modal() }, { token })).body.error).toBe("invalid_arguments");

    const { legacy } = await h.apps();
    const other = await h.install(legacy, { scope: ["chat:write"], userScope: [] });
    expect((await h.call("views.update", { view_id: opened.id, view: modal() }, { token: other.access_token })).body.error).toBe("not_found");
  });

  it("refuses an external_id another of the app's views holds", async () => {
    const { h, app, token } = await setUp();
    await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("a", { external_id: "taken" }) }, { token });
    const b = (await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("b") }, { token })).body.view;
    expect((await h.call("views.update", { view_id: b.id, view: modal("b", { external_id: "taken" }) }, { token })).body.error).toBe("duplicate_external_id");
  });
});

describe("views.push", () => {
  it("pushes onto the member's open modal, at most 3 views in all: push_limit_reached", async () => {
    const { h, app, token } = await setUp();
    const root = (await h.call("views.open", { trigger_id: await trigger(h, app), view: modal("root") }, { token })).body.view;
    const second = (await h.call("views.push", { trigger_id: await trigger(h, app, { view_id: root.id }), view: modal("second") }, { token })).body;
    expect(second).toMatchObject({ ok: true, view: { root_view_id: root.id, previous_view_id: root.id, title: { text: "second" } } });
    expect(second.view.id).not.toBe(root.id);
    const third = (await h.call("views.push", { trigger_id: await trigger(h, app, { view_id: second.view.id }), view: modal("third") }, { token })).body;
    expect(third.view).toMatchObject({ root_view_id: root.id, previous_view_id: second.view.id });
    const fourth = await h.call("views.push", { trigger_id: await trigger(h, app, { view_id: third.view.id }), view: modal("fourth") }, { token });
    expect(fourth.body.error).toBe("push_limit_reached");
  });

  it("needs an open modal (not_found) and a live trigger", async () => {
    const { h, app, token } = await setUp();
    expect((await h.call("views.push", { trigger_id: await trigger(h, app), view: modal() }, { token })).body.error).toBe("not_found");
    await h.call("views.open", { trigger_id: await trigger(h, app), view: modal() }, { token });
    const late = await trigger(h, app);
    h.clock.advance(5000);
    expect((await h.call("views.push", { trigger_id: late, view: modal() }, { token })).body.error).toBe("expired_trigger_id");
    expect((await h.call("views.push", { trigger_id: await trigger(h, app), view: modal() }, { token })).body.ok).toBe(true);
  });
});

describe("views.publish", () => {
  it("publishes a member's App Home, keeps it per member and app, and replaces it on the next publish", async () => {
    const { h, token, user, app } = await setUp();
    const first = (await h.call("views.publish", { user_id: user, view: home("Welcome home") }, { token })).body;
    expect(first).toMatchObject({ ok: true, view: { type: "home", close: null, submit: null, previous_view_id: null, app_id: app.app_id } });
    expect(first.view.root_view_id).toBe(first.view.id);

    h.clock.advance(1000);
    const second = (await h.call("views.publish", { user_id: user, view: home("Updated"), hash: first.view.hash }, { token })).body;
    expect(second).toMatchObject({ ok: true, view: { id: first.view.id, blocks: [{ text: { text: "Updated" } }] } });
    expect(second.view.hash).not.toBe(first.view.hash);

    // A stale hash is refused: someone published in between.
    expect((await h.call("views.publish", { user_id: user, view: home("Lost"), hash: first.view.hash }, { token })).body.error).toBe("hash_conflict");

    // Another member gets an App Home of their own.
    const someone = memberIdAt(h.emulator.state.workspace, 1);
    const theirs = (await h.call("views.publish", { user_id: someone, view: home("Theirs") }, { token })).body.view;
    expect(theirs.id).not.toBe(first.view.id);

    // And views.update reaches the App Home by its id.
    const updated = (await h.call("views.update", { view_id: first.view.id, view: home("Via update") }, { token })).body;
    expect(updated).toMatchObject({ ok: true, view: { id: first.view.id, type: "home" } });
  });

  it("answers the platform's errors: a user token, an unknown member, a modal, a missing user_id", async () => {
    const { h, token, userToken, user } = await setUp();
    expect((await h.call("views.publish", { user_id: user, view: home("x") }, { token: userToken })).body.error).toBe("not_allowed_token_type");
    expect((await h.call("views.publish", { user_id: "U0NOBODY1", view: home("x") }, { token })).body).toMatchObject({
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] invalid `user_id`"] },
    });
    expect((await h.call("views.publish", { user_id: user, view: modal() }, { token })).body.error).toBe("invalid_arguments");
    expect((await h.call("views.publish", { view: home("x") }, { token })).body.error).toBe("invalid_arguments");
    expect((await h.call("views.publish", { user_id: user, view: home("x") })).body.error).toBe("not_authed");
  });
});
