/**
 * The Workspace page's "Add a member", through the console's act route over real HTTP to the emulator: a new
 * person joins the workspace (POST /admin/act/join-team), is offered to act as at once, every member's live
 * stream hears of them, and an unmodified @slack/bolt app subscribed to team_join receives it. A bad name,
 * another site, or a member named as the actor join nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App, LogLevel } from "@slack/bolt";
import { GET as memberRoute } from "@/app/api/workspace/route";
import { GET as streamRoute } from "@/app/api/workspace/stream/route";
import { POST as actRoute } from "@/app/api/workspace/act/[action]/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { createSocketModeApp, until } from "../emulator/support/socket-mode-app";

let server: TestConsole;

beforeAll(async () => {
  server = await startTestConsole();
});

afterAll(async () => {
  await server.close();
});

interface Member {
  user: string;
  member_count: number;
  people: Array<{ id: string; name: string }>;
}

const readMember = async (browser: TestBrowser): Promise<Member> => (await (await browser.send(memberRoute, "/api/workspace")).json()) as Member;
const join = (browser: TestBrowser, json: unknown, headers: Record<string, string> = {}) =>
  browser.send(actRoute, "/api/workspace/act/join-team", { method: "POST", json, headers, params: { action: "join-team" } });

describe("adding a member from the Workspace page", () => {
  it("makes a new member of the workspace, offered to act as, streamed to members, and sent to the app as team_join", async () => {
    const installed = await createSocketModeApp(server.emulator, { name: "Greeter", botEvents: ["team_join"], botScopes: ["users:read"] });
    const bolt = new App({
      token: installed.botToken,
      appToken: installed.appToken,
      socketMode: true,
      clientOptions: { slackApiUrl: `${server.emulator.url}/api/` },
      logLevel: LogLevel.ERROR,
    });
    const joined: Array<{ id: string; real_name?: string }> = [];
    bolt.event("team_join", async ({ event }) => {
      joined.push(event.user as { id: string; real_name?: string });
    });
    await bolt.start();
    const controller = new AbortController();
    try {
      const browser = new TestBrowser(server.origin);
      const before = await readMember(browser);

      // Another member's page is open: its stream hears of the new member.
      const stream = await streamRoute(new Request(`${server.origin}/api/workspace/stream?user=${before.people[1]!.id}`, { signal: controller.signal }), {
        params: Promise.resolve({}),
      });
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let seen = "";
      const read = async (needle: string) => {
        while (!seen.includes(needle)) {
          const { value, done } = await reader.read();
          if (done) throw new Error(`the stream ended before ${needle}`);
          seen += decoder.decode(value, { stream: true });
        }
      };
      await read("event: ready");

      const added = await join(browser, { real_name: "Ada Lovelace" });
      expect(added.status).toBe(200);
      const answer = (await added.json()) as { user: { id: string; real_name: string }; event_ids: string[] };
      expect(answer.user).toMatchObject({ id: expect.stringMatching(/^U/), real_name: "Ada Lovelace" });
      expect(answer.event_ids).toHaveLength(1);

      const after = await readMember(browser);
      expect(after.people).toContainEqual({ id: answer.user.id, name: "Ada Lovelace" });
      expect(after.member_count).toBe(before.member_count + 1);
      await read('"type":"member_joined"');
      expect(seen).toContain(`"user":"${answer.user.id}"`);
      await until(() => (joined.some((u) => u.id === answer.user.id) ? true : undefined), "team_join at the app");
      expect(joined.find((u) => u.id === answer.user.id)).toMatchObject({ real_name: "Ada Lovelace" });

      // The new member is someone to act as: their page opens with them as the member.
      const asThem = (await (await browser.send(memberRoute, `/api/workspace?user=${answer.user.id}`)).json()) as Member;
      expect(asThem.user).toBe(answer.user.id);
      await reader.cancel();
    } finally {
      controller.abort();
      await bolt.stop();
    }
  });

  it("refuses a blank or overlong name, a member named as the actor, and another site's request: nobody joins", async () => {
    const browser = new TestBrowser(server.origin);
    const before = await readMember(browser);
    const blank = await join(browser, { real_name: "   " });
    expect(blank.status).toBe(422);
    expect(await blank.json()).toMatchObject({ error: "invalid_request", message: expect.stringContaining("real_name") });
    expect((await join(browser, { real_name: "x".repeat(81) })).status).toBe(422);
    expect((await join(browser, { real_name: "Grace Hopper", user: before.user })).status).toBe(422);
    const forged = await join(browser, { real_name: "Mallory" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(forged.status).toBe(403);
    expect((await readMember(browser)).member_count).toBe(before.member_count);
  });

  it("refuses a name with a NUL, a bidirectional override or a line break, saying why: nobody joins", async () => {
    const browser = new TestBrowser(server.origin);
    const before = await readMember(browser);
    // A NUL is refused before any route reads the body (400 nul_character, as everywhere in the console).
    const nul = await join(browser, { real_name: "\u0000Ada \u202Eecila" });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ error: "nul_character" });
    for (const real_name of ["Ada \u202Eecila", "Ada\u202ELovelace", "Ada\nLovelace", "Ada\u2028Lovelace", "Ada\u200BLovelace"]) {
      const refused = await join(browser, { real_name });
      expect(refused.status, JSON.stringify(real_name)).toBe(422);
      expect(await refused.json()).toMatchObject({ message: expect.stringContaining("without control characters, bidirectional overrides or line breaks") });
    }
    expect((await readMember(browser)).member_count).toBe(before.member_count);
  });
});
