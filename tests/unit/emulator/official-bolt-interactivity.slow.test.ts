/**
 * An unmodified @slack/bolt app with slash commands, shortcuts, buttons and modals (support/bolt-ticketer.ts),
 * over Socket Mode and over HTTP (Bolt's HTTP receiver, its one endpoint named as the command's URL, the
 * Interactivity Request URL and the Options Load URL) against the standalone emulator, and over Socket Mode
 * against the console's embedded one (which POSTs to no URL but the console's own), driven as a member
 * through the admin surface: `/ticket` opens a modal; a short title is refused under its block; a valid ticket
 * is posted with a button; clicking it updates the message through `respond()` (a response_url); the Home
 * the app publishes has a button that opens the modal; a global and a message shortcut reach their listeners;
 * the modal's external select takes its options from the app. Every interaction is recorded.
 */
import { createServer, type AddressInfo } from "node:net";
import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbedded } from "./support/embedded-server";
import { fileTickets, ticketerManifest, TICKETER_EVENTS, TICKETER_SCOPES, type Ticketer } from "./support/bolt-ticketer";
import type { Json } from "./support/emulator-harness";
import { adminCall, appManifest, createSocketModeApp, startStandalone, until, webApi, type AppOptions, type InstalledApp } from "./support/socket-mode-app";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

type Server = { url: string; close(): Promise<void> };

async function adminGet(server: Server, path: string): Promise<Json> {
  return (await (await fetch(`${server.url}/admin/${path}`)).json()) as Json;
}

const TARGETS = [
  { transport: "socket", emulator: "standalone" },
  { transport: "http", emulator: "standalone" },
  { transport: "socket", emulator: "embedded" },
] as const;

describe.each(TARGETS)("an unmodified @slack/bolt app's interactions over $transport, against the $emulator emulator", ({ transport, emulator }) => {
  let server: Server;
  let installed: InstalledApp;
  let bolt: App;
  let got: Ticketer;
  let general = "";
  let member = "";

  /** The member's open modals, root first. */
  async function modals(): Promise<Json[]> {
    return (await adminGet(server, `views?user=${member}`)).modals as Json[];
  }

  /** Runs /ticket with `text` and answers the modal it opened. */
  async function openTicketModal(text: string): Promise<Json> {
    const before = got.opened.length;
    const ran = await adminCall(server, "act/command", { command: "/ticket", text, channel: general, user: member });
    expect(ran).toMatchObject({ ok: true, type: "slash_commands", outcome: "ok", via: transport });
    await until(() => (got.opened.length > before ? true : undefined), "views.open");
    return (await modals()).at(-1) as Json;
  }

  beforeAll(async () => {
    server = emulator === "embedded" ? await startEmbedded() : await startStandalone();
    const boltUrl = transport === "http" ? `http://127.0.0.1:${await freePort()}` : undefined;
    const app: AppOptions = {
      name: `Bolt Ticketer ${transport}`,
      socketMode: transport === "socket",
      botEvents: TICKETER_EVENTS,
      botScopes: TICKETER_SCOPES,
      ...ticketerManifest(),
    };
    installed = await createSocketModeApp(server, app);
    bolt =
      transport === "socket"
        ? new App({
            token: installed.botToken,
            appToken: installed.appToken,
            socketMode: true,
            clientOptions: { slackApiUrl: `${server.url}/api/` },
            logLevel: LogLevel.ERROR,
          })
        : new App({
            token: installed.botToken,
            signingSecret: installed.signingSecret,
            clientOptions: { slackApiUrl: `${server.url}/api/` },
            logLevel: LogLevel.ERROR,
          });
    got = fileTickets(bolt);
    if (transport === "socket") await bolt.start();
    else {
      await bolt.start(Number(new URL(boltUrl!).port));
      // Its URLs set once it listens, as a developer does: the event request URL is verified then.
      const urls = { ...app, ...ticketerManifest(boltUrl), requestUrl: `${boltUrl}/slack/events` };
      expect(await adminCall(server, "apps", { app_id: installed.appId, manifest: appManifest(urls) })).toMatchObject({ ok: true });
      await until(async () => {
        const apps = (await adminCall(server, "apps")).apps as Json[];
        return apps.find((a) => a.app_id === installed.appId)?.event_subscriptions.request_url_verification?.state === "verified" ? true : undefined;
      }, "the request URL's verification");
    }
    // #general (where a member's post goes by default), and the member who installed the app.
    general = (await adminCall(server, "act/post", { text: "good morning" })).channel;
    const state = await adminCall(server, "state");
    member = ((state.installations as Json[]).find((i) => i.app_id === installed.appId) as Json).authed_user_id;
  }, 30_000);

  afterAll(async () => {
    await bolt?.stop().catch(() => undefined);
    await server?.close();
  });

  it("runs /ticket: the command reaches its listener with a trigger_id, and the modal it opens is the member's", async () => {
    const modal = await openTicketModal("");
    const command = got.commands.at(-1) as Json;
    expect(command).toMatchObject({ command: "/ticket", channel_id: general, user_id: member, team_id: installed.teamId, api_app_id: installed.appId });
    expect(command.response_url).toMatch(new RegExp(`^${server.url}/commands/${installed.teamId}/`));
    expect(modal).toMatchObject({ type: "modal", callback_id: "ticket_modal", private_metadata: JSON.stringify({ channel: general }) });
  });

  it("refuses a short title under its block (response_action errors), and the modal stays open", async () => {
    const modal = await openTicketModal("");
    const submitted = await adminCall(server, "act/submit", { view_id: modal.id, user: member, values: { title_block: { title: "bug" } } });
    expect(submitted).toMatchObject({
      ok: true,
      type: "view_submission",
      outcome: "errors",
      result: { errors: { title_block: "A title has at least 5 characters." } },
    });
    const open = (await modals()).find((v) => v.id === modal.id);
    expect(open).toMatchObject({
      errors: { title_block: "A title has at least 5 characters." },
      state: { values: { title_block: { title: { type: "plain_text_input", value: "bug" } } } },
    });
    // The app read the view's callback_id, private_metadata and the member's entry.
    expect(got.submissions.at(-1)).toMatchObject({
      view: { id: modal.id, callback_id: "ticket_modal", private_metadata: JSON.stringify({ channel: general }) },
    });
  });

  it("posts a valid ticket with a button, and clicking it updates the message through respond()", async () => {
    const modal = await openTicketModal("");
    const submitted = await adminCall(server, "act/submit", { view_id: modal.id, user: member, values: { title_block: { title: "Printer on fire" } } });
    expect(submitted).toMatchObject({ ok: true, outcome: "closed" });
    expect((await modals()).map((v) => v.id)).not.toContain(modal.id);
    const posted = await until(async () => {
      const history = await webApi(server, "conversations.history", { channel: general, limit: "20" }, installed.botToken);
      return (history.messages as Json[]).find((m) => m.text === "Ticket: Printer on fire");
    }, "the ticket's message");

    const clicked = await adminCall(server, "act/click", { channel: general, ts: posted.ts, action_id: "close_ticket", user: member });
    expect(clicked).toMatchObject({ ok: true, type: "block_actions", outcome: "ok", response_url: expect.stringContaining(`${server.url}/actions/`) });
    const updated = await until(async () => {
      const history = await webApi(server, "conversations.history", { channel: general, limit: "20" }, installed.botToken);
      const now = (history.messages as Json[]).find((m) => m.ts === posted.ts);
      return now?.text.startsWith("Closed") ? now : undefined;
    }, "the message replaced through the response_url");
    expect(updated).toMatchObject({ text: `Closed: Printer on fire by <@${member}>` });
    expect(updated.blocks).toBeUndefined();
    expect(got.respondErrors).toEqual([]);
    const action = got.actions.at(-1) as Json;
    expect(action).toMatchObject({
      type: "block_actions",
      container: { type: "message", message_ts: posted.ts, channel_id: general, is_ephemeral: false },
      actions: [{ type: "button", action_id: "close_ticket", block_id: "ticket_actions", value: "Printer on fire" }],
      message: { ts: posted.ts },
      trigger_id: expect.stringMatching(/^\d+\.\d+\.[0-9a-f]+$/),
    });
  });

  it("opens a modal from the button of the Home it publishes on app_home_opened", async () => {
    expect(await adminCall(server, "act/open-home", { app_id: installed.appId, user: member })).toMatchObject({ ok: true });
    const home = await until(async () => ((await adminGet(server, `views?user=${member}`)).homes as Json[])[0], "the published Home");
    const before = got.opened.length;
    const clicked = await adminCall(server, "act/click", { view_id: home.id, action_id: "home_new_ticket", user: member });
    expect(clicked).toMatchObject({ ok: true, outcome: "ok" });
    expect(clicked.response_url).toBeUndefined();
    await until(() => (got.opened.length > before ? true : undefined), "views.open from the Home");
    expect((await modals()).at(-1)).toMatchObject({ callback_id: "ticket_modal" });
    expect(got.actions.at(-1)).toMatchObject({ container: { type: "view", view_id: home.id }, view: { id: home.id, type: "home" } });
  });

  it("reaches the global and the message shortcut's listeners", async () => {
    const global = await adminCall(server, "act/shortcut", { callback_id: "new_ticket", user: member });
    expect(global).toMatchObject({ ok: true, type: "shortcut", outcome: "ok" });
    await until(() => got.shortcuts[0], "the global shortcut");
    expect(got.shortcuts[0]).toMatchObject({ type: "shortcut", callback_id: "new_ticket", user: { id: member }, trigger_id: global.trigger_id });

    const posted = await adminCall(server, "act/post", { channel: general, text: "the printer is on fire", user: member });
    const onMessage = await adminCall(server, "act/shortcut", { callback_id: "ticket_from_message", channel: general, ts: posted.ts, user: member });
    expect(onMessage).toMatchObject({ ok: true, type: "message_action", outcome: "ok" });
    await until(() => got.messageShortcuts[0], "the message shortcut");
    expect(got.messageShortcuts[0]).toMatchObject({
      type: "message_action",
      callback_id: "ticket_from_message",
      channel: { id: general },
      message: { ts: posted.ts, text: "the printer is on fire" },
      response_url: onMessage.response_url,
    });
  });

  it("gives an external select the options the app answers (block_suggestion)", async () => {
    const modal = await openTicketModal("");
    const suggested = await adminCall(server, "act/suggest", { view_id: modal.id, action_id: "project", value: "m", user: member });
    expect(suggested).toMatchObject({ ok: true, type: "block_suggestion", outcome: "options" });
    expect(suggested.result.options).toEqual([{ text: { type: "plain_text", text: "mobile" }, value: "mobile" }]);
    expect(got.suggestions.at(-1)).toMatchObject({
      type: "block_suggestion",
      action_id: "project",
      block_id: "project_block",
      value: "m",
      view: { id: modal.id },
    });
  });

  it("records every interaction with the app's answer and its timing", async () => {
    const { interactions } = await adminGet(server, "interactions");
    const types = new Set((interactions as Json[]).map((i) => i.type));
    expect([...types].sort()).toEqual(["block_actions", "block_suggestion", "message_action", "shortcut", "slash_commands", "view_submission"]);
    const refused = (interactions as Json[]).find((i) => i.outcome === "errors");
    expect(refused).toBeDefined();
    expect(refused).toMatchObject({
      via: transport,
      user: member,
      answer: { response_action: "errors" },
      duration_ms: expect.any(Number),
      app_id: installed.appId,
    });
    // The deprecated verification token is not shown.
    expect(refused?.payload.token).toBeUndefined();
    // With the event deliveries, newest first: the app_home_opened came before the Home's button was clicked.
    const { records } = await adminGet(server, "records");
    const kinds = (records as Json[]).map((r) => `${r.kind}:${r.kind === "event" ? r.event_type : r.type}`);
    expect(kinds).toContain("event:app_home_opened");
    const homeClick = (records as Json[]).findIndex((r) => r.kind === "interaction" && r.payload.container?.type === "view");
    expect(homeClick).toBeGreaterThanOrEqual(0);
    expect(homeClick).toBeLessThan(kinds.indexOf("event:app_home_opened"));
  });
});
