import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callApi, install, startEmulator } from "./support";

type Message = { ts: string; text: string; user?: string; thread_ts?: string; reply_count?: number; reactions?: unknown[]; files?: Array<{ id: string }> };

function seeded(seed = "seed-content-tests") {
  return startEmulator({ seed, seedContent: true, workspaces: 2 });
}

async function history(emulator: ReturnType<typeof seeded>["emulator"], token: string, channel: string): Promise<Message[]> {
  const messages: Message[] = [];
  let cursor = "";
  do {
    const page = await callApi(emulator, "conversations.history", { channel, limit: 200, ...(cursor ? { cursor } : {}) }, token);
    expect(page.ok, String(page.error)).toBe(true);
    messages.push(...(page.messages as Message[]));
    cursor = (page.response_metadata as { next_cursor: string }).next_cursor;
  } while (cursor);
  return messages;
}

describe("a seeded workspace's history", () => {
  it("gives an installed bot #general's history at once: 50+ messages, five threads with replies, reactions and a file", async () => {
    const { emulator } = seeded();
    const { botToken } = await install(emulator, { botScopes: ["channels:history", "channels:read"] });
    const general = emulator.state.workspace.channels.find((c) => c.name === "general")!;
    const messages = await history(emulator, botToken, general.id);
    expect(messages.length).toBeGreaterThanOrEqual(50);
    const threads = messages.filter((m) => (m.reply_count ?? 0) > 0);
    expect(threads).toHaveLength(5);
    const replies = await callApi(emulator, "conversations.replies", { channel: general.id, ts: threads[0]!.ts }, botToken);
    expect((replies.messages as Message[]).length).toBe(1 + threads[0]!.reply_count!);
    expect(messages.some((m) => (m.reactions?.length ?? 0) > 0)).toBe(true);
    const shared = messages.filter((m) => m.files?.length);
    expect(shared).toHaveLength(1);
    // The default apps do not ask for files:read: the workspace's files are what files.list and files.info read.
    const file = emulator.state.workspace.files.files.get(shared[0]!.files![0]!.id);
    expect(file?.shares.get(general.id)).toEqual([shared[0]!.ts]);
  });

  it("has three more channels of 50+ messages each, read after the bot joins them, and one file in each", async () => {
    const { emulator } = seeded();
    const { botToken } = await install(emulator, { botScopes: ["channels:history", "channels:read", "channels:join"] });
    for (const name of ["random", "engineering", "incidents"]) {
      const channel = emulator.state.workspace.channels.find((c) => c.name === name)!;
      expect((await callApi(emulator, "conversations.history", { channel: channel.id }, botToken)).error).toBe("not_in_channel");
      expect((await callApi(emulator, "conversations.join", { channel: channel.id }, botToken)).ok).toBe(true);
      const messages = await history(emulator, botToken, channel.id);
      expect(messages.length).toBeGreaterThanOrEqual(50);
      expect(messages.filter((m) => (m.reply_count ?? 0) > 0)).toHaveLength(5);
    }
    const files = [...emulator.state.workspace.files.files.values()];
    expect(new Set(files.flatMap((f) => [...f.shares.keys()])).size).toBe(4);
  });

  it("is the same for the same seed, differs for another, and each workspace has its own", async () => {
    const text = (e: ReturnType<typeof seeded>["emulator"], team = 0) => {
      const ws = [...e.state.workspaces.values()][team]!;
      const general = ws.channels.find((c) => c.isGeneral)!;
      return ws.messages.get(general.id)!.map((m) => `${m.ts} ${m.user} ${m.text}`);
    };
    const a = seeded("same").emulator;
    const b = seeded("same").emulator;
    const c = seeded("other").emulator;
    expect(text(a)).toEqual(text(b));
    expect(text(a)).not.toEqual(text(c));
    expect(text(a, 1).length).toBeGreaterThanOrEqual(50);
    expect(text(a, 1)).not.toEqual(text(a));
  });

  it("puts a new message after the seeded history, and leaves channels empty without seedContent", async () => {
    const { emulator } = seeded();
    const { botToken } = await install(emulator, { botScopes: ["channels:history", "chat:write"] });
    const general = emulator.state.workspace.channels.find((c) => c.isGeneral)!;
    const posted = await callApi(emulator, "chat.postMessage", { channel: general.id, text: "fresh" }, botToken);
    const newest = (await callApi(emulator, "conversations.history", { channel: general.id, limit: 1 }, botToken)).messages as Message[];
    expect(newest[0]).toMatchObject({ ts: posted.ts, text: "fresh" });

    const blank = startEmulator({ seed: "seed-content-tests" }).emulator;
    expect(blank.state.workspace.messages.size).toBe(0);
  });

  it("comes back as it was from a data directory, with what was posted since, and is not seeded a second time", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "seeded-"));
    try {
      const first = startEmulator({ seed: "seed-content-tests", seedContent: true, dataDir: dir }).emulator;
      const { botToken } = await install(first, { botScopes: ["channels:history", "chat:write"] });
      const general = first.state.workspace.channels.find((c) => c.isGeneral)!;
      expect((await callApi(first, "chat.postMessage", { channel: general.id, text: "kept" }, botToken)).ok).toBe(true);
      const messages = structuredClone(first.state.workspace.messages.get(general.id));
      const files = [...first.state.workspace.files.files.keys()];
      await first.close();

      const second = startEmulator({ seed: "seed-content-tests", seedContent: true, dataDir: dir }).emulator;
      expect(second.state.workspace.messages.get(general.id)).toEqual(messages);
      expect([...second.state.workspace.files.files.keys()]).toEqual(files);
      expect((await callApi(second, "conversations.history", { channel: general.id, limit: 1 }, botToken)).messages).toMatchObject([{ text: "kept" }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
