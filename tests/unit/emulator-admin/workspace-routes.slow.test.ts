/**
 * The Workspace page's console routes over real HTTP to the emulator: what a member sees, acts carried to the
 * emulator (refused from another site, or with a bad body, before anything happens), and the live stream
 * relayed as it comes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as memberRoute } from "@/app/api/workspace/route";
import { GET as historyRoute } from "@/app/api/workspace/history/route";
import { GET as streamRoute } from "@/app/api/workspace/stream/route";
import { POST as actRoute } from "@/app/api/workspace/act/[action]/route";
import { GET as viewsRoute } from "@/app/api/workspace/views/route";
import { GET as peopleRoute } from "@/app/api/workspace/people/route";
import { App, LogLevel } from "@slack/bolt";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { fileTickets, ticketerManifest, TICKETER_EVENTS, TICKETER_SCOPES } from "../emulator/support/bolt-ticketer";
import { adminCall, createSocketModeApp, until } from "../emulator/support/socket-mode-app";

let server: TestConsole;

beforeAll(async () => {
  server = await startTestConsole();
});

afterAll(async () => {
  await server.close();
});

interface Member {
  user: string;
  people: Array<{ id: string; name: string }>;
  conversations: Array<{ id: string; name: string; type: string; is_member: boolean }>;
  apps: Array<{ app_id: string; commands: unknown[] }>;
}

async function general(browser: TestBrowser) {
  const response = await browser.send(memberRoute, "/api/workspace");
  expect(response.status).toBe(200);
  const member = (await response.json()) as Member;
  const channel = member.conversations.find((c) => c.name === "general")!;
  return { member, channel };
}

async function historyTexts(browser: TestBrowser, channel: string, user?: string): Promise<string[]> {
  const response = await browser.send(historyRoute, `/api/workspace/history?channel=${channel}${user ? `&user=${user}` : ""}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { messages: Array<{ text: string }> }).messages.map((m) => m.text);
}

describe("the Workspace page's routes", () => {
  it("shows what a member sees and posts as them; another site's post and a bad body change nothing", async () => {
    const browser = new TestBrowser(server.origin);
    const { member, channel } = await general(browser);
    expect(member.people.length).toBeGreaterThan(1);
    expect(channel).toMatchObject({ type: "public", is_member: true });

    const posted = await browser.send(actRoute, "/api/workspace/act/post", {
      method: "POST",
      json: { channel: channel.id, text: "hello from the page" },
      params: { action: "post" },
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toMatchObject({ channel: channel.id, ts: expect.any(String), event_ids: expect.any(Array) });
    expect(await historyTexts(browser, channel.id)).toContain("hello from the page");

    const forged = await browser.send(actRoute, "/api/workspace/act/post", {
      method: "POST",
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      json: { channel: channel.id, text: "from another site" },
      params: { action: "post" },
    });
    expect(forged.status).toBe(403);
    const empty = await browser.send(actRoute, "/api/workspace/act/post", {
      method: "POST",
      json: { channel: channel.id, text: "   " },
      params: { action: "post" },
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ error: "invalid_request", message: expect.stringContaining("text") });
    const unknown = await browser.send(actRoute, "/api/workspace/act/explode", { method: "POST", json: {}, params: { action: "explode" } });
    expect(unknown.status).toBe(422);
    const texts = await historyTexts(browser, channel.id);
    expect(texts).not.toContain("from another site");
    expect(texts).not.toContain("   ");
  });

  it("finds anyone of the workspace to act as by name, past the people the member read offers; an empty search is refused", async () => {
    const browser = new TestBrowser(server.origin);
    const { member } = await general(browser);
    // A 50-member workspace: most of those whose name holds an "a" are not among the 12 offered first.
    const offered = new Set(member.people.map((p) => p.id));
    const found = await browser.send(peopleRoute, "/api/workspace/people?q=a");
    expect(found.status).toBe(200);
    const answer = (await found.json()) as { people: Array<{ id: string; name: string }>; next: number | null };
    // At most 20 a read; `next` says where the search goes on.
    expect(answer.people.length).toBeLessThanOrEqual(20);
    expect(answer.people.length).toBeGreaterThan(0);
    expect(answer.people.every((p) => p.name.toLowerCase().includes("a"))).toBe(true);
    const beyond = answer.people.find((p) => !offered.has(p.id));
    expect(beyond).toBeDefined();
    // The one found is someone to act as.
    const acting = await browser.send(memberRoute, `/api/workspace?user=${beyond!.id}`);
    expect(acting.status).toBe(200);
    expect(((await acting.json()) as Member).user).toBe(beyond!.id);
    const byId = (await (await browser.send(peopleRoute, `/api/workspace/people?q=${beyond!.id.toLowerCase()}`)).json()) as { people: Array<{ id: string }> };
    expect(byId.people[0]?.id).toBe(beyond!.id);

    const empty = await browser.send(peopleRoute, "/api/workspace/people?q=%20%20");
    expect(empty.status).toBe(422);
  });

  it("relays an emulator's refusal with its code (a member who is not one of the workspace)", async () => {
    const browser = new TestBrowser(server.origin);
    const response = await browser.send(memberRoute, "/api/workspace?user=U0NOBODY1");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "user_not_found" });
  });

  it("relays the member's live stream: another member's post arrives as it happens", async () => {
    const browser = new TestBrowser(server.origin);
    const { member, channel } = await general(browser);
    const [me, other] = member.people.map((p) => p.id);
    const controller = new AbortController();
    const response = await streamRoute(new Request(`${server.origin}/api/workspace/stream?user=${me}`, { signal: controller.signal }), {
      params: Promise.resolve({}),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    const until = async (needle: string) => {
      while (!seen.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${needle}`);
        seen += decoder.decode(value, { stream: true });
      }
    };
    await until("event: ready");
    await browser.send(actRoute, "/api/workspace/act/post", {
      method: "POST",
      json: { channel: channel.id, text: "live one", user: other },
      params: { action: "post" },
    });
    await until('"text":"live one"');
    expect(seen).toContain('"type":"message_posted"');
    await reader.cancel();
    controller.abort();
  });

  it("holds one viewer to a few live streams, and takes one again once a tab goes", async () => {
    const open = async () => streamRoute(new Request(`${server.origin}/api/workspace/stream`), { params: Promise.resolve({}) });
    const streams: Response[] = [];
    for (let i = 0; i < 8; i++) streams.push(await open());
    expect(streams.map((r) => r.status)).toEqual(Array(8).fill(200));
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("15");
    await streams[0]!.body!.cancel();
    const again = await open();
    expect(again.status).toBe(200);
    for (const r of [...streams.slice(1), again]) await r.body!.cancel();
  });

  it("asks an app for an external select's options as the member types (suggest); another site's ask reaches no app", async () => {
    // An unmodified @slack/bolt app over Socket Mode, whose /ticket modal has a project picker that loads its options.
    const installed = await createSocketModeApp(server.emulator, {
      name: "Suggest Ticketer",
      botEvents: TICKETER_EVENTS,
      botScopes: TICKETER_SCOPES,
      ...ticketerManifest(),
    });
    const bolt = new App({
      token: installed.botToken,
      appToken: installed.appToken,
      socketMode: true,
      clientOptions: { slackApiUrl: `${server.emulator.url}/api/` },
      logLevel: LogLevel.ERROR,
    });
    const got = fileTickets(bolt);
    await bolt.start();
    try {
      const browser = new TestBrowser(server.origin);
      const { channel } = await general(browser);
      const member = ((await adminCall(server.emulator, "state")).installations as Array<{ app_id: string; authed_user_id: string }>).find(
        (i) => i.app_id === installed.appId,
      )!.authed_user_id;
      const ran = await browser.send(actRoute, "/api/workspace/act/command", {
        method: "POST",
        json: { command: "/ticket", channel: channel.id, app_id: installed.appId, user: member },
        params: { action: "command" },
      });
      expect(ran.status).toBe(200);
      const modal = await until(async () => {
        const views = (await (await browser.send(viewsRoute, `/api/workspace/views?user=${member}`)).json()) as { modals: Array<{ id: string }> };
        return views.modals.at(-1);
      }, "the /ticket modal");

      const suggested = await browser.send(actRoute, "/api/workspace/act/suggest", {
        method: "POST",
        json: { view_id: modal.id, action_id: "project", value: "m", user: member },
        params: { action: "suggest" },
      });
      expect(suggested.status).toBe(200);
      expect(await suggested.json()).toMatchObject({
        type: "block_suggestion",
        outcome: "options",
        result: { options: [{ text: { type: "plain_text", text: "mobile" }, value: "mobile" }] },
      });
      expect(got.suggestions.at(-1)).toMatchObject({ type: "block_suggestion", action_id: "project", value: "m", view: { id: modal.id } });

      const asked = got.suggestions.length;
      const forged = await browser.send(actRoute, "/api/workspace/act/suggest", {
        method: "POST",
        headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
        json: { view_id: modal.id, action_id: "project", value: "w", user: member },
        params: { action: "suggest" },
      });
      expect(forged.status).toBe(403);
      const long = await browser.send(actRoute, "/api/workspace/act/suggest", {
        method: "POST",
        json: { view_id: modal.id, action_id: "project", value: "x".repeat(201), user: member },
        params: { action: "suggest" },
      });
      expect(long.status).toBe(422);
      expect(got.suggestions.length).toBe(asked);
    } finally {
      await bolt.stop().catch(() => undefined);
    }
  }, 30_000);
});
