import { describe, expect, it } from "vitest";
import type { Emulator } from "@/lib/emulator";
import { streamAllPages, type UpstreamPage } from "@/lib/call/fetch-all";
import { readNdjson, type FetchAllEvent, type PageEvent } from "@/lib/explorer/fetch-all-events";
import { memberCount } from "@/lib/emulator/workspace/members";
import { BASE, install, startEmulator } from "../emulator/workspace/support";

/** users.list against the in-process emulator, as the console's platform client calls it (GET, Bearer). */
function emulatorCaller(emulator: Emulator, token: string) {
  const calls: Array<Record<string, string>> = [];
  const call = async (params: Record<string, string>, signal: AbortSignal): Promise<UpstreamPage> => {
    calls.push(params);
    const started = performance.now();
    const response = await emulator.fetch(
      new Request(`${BASE}/api/users.list?${new URLSearchParams(params)}`, { headers: { authorization: `Bearer ${token}` }, signal }),
    );
    const rawText = await response.text();
    const retryAfter = response.headers.get("retry-after");
    return {
      status: response.status,
      body: JSON.parse(rawText),
      rawText,
      durationMs: performance.now() - started,
      ...(retryAfter ? { retryAfterS: Number(retryAfter) } : {}),
    };
  };
  return { call, calls };
}

const describeError = () => ({ error: "internal_error", message: "failed" });

async function readAll(response: Response): Promise<FetchAllEvent[]> {
  const events: FetchAllEvent[] = [];
  for await (const event of readNdjson(response.body!)) events.push(event as FetchAllEvent);
  return events;
}

describe("GET /api/call/{method}/all's stream, over the emulator", () => {
  it("streams every member exactly once, across short pages, and ends with done", async () => {
    const { emulator } = startEmulator({ users: 1234 });
    const { botToken } = await install(emulator);
    const { call } = emulatorCaller(emulator, botToken);
    const response = await streamAllPages({ call, params: { limit: "200" }, maxPages: 1000, signal: new AbortController().signal, describeError });
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    const events = await readAll(response);
    const pages = events.filter((e): e is PageEvent => e.type === "page");
    const ids = pages.flatMap((p) => (p.response.members as Array<{ id: string }>).map((m) => m.id));
    const expected = memberCount(emulator.state.workspace);
    expect(ids.length).toBe(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(pages.some((p) => p.count < 200 && p.next_cursor)).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", pages: pages.length, items: expected, capped: false });
  });

  it("stops calling upstream when the reader cancels", async () => {
    const { emulator } = startEmulator({ users: 3000 });
    const { botToken } = await install(emulator);
    const { call, calls } = emulatorCaller(emulator, botToken);
    const response = await streamAllPages({ call, params: { limit: "10" }, maxPages: 1000, signal: new AbortController().signal, describeError });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    const atCancel = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.length).toBe(atCancel);
    expect(atCancel).toBeLessThan(5);
  });

  it("stops calling upstream when the request's signal aborts (the browser went away)", async () => {
    const { emulator } = startEmulator({ users: 3000 });
    const { botToken } = await install(emulator);
    const { call, calls } = emulatorCaller(emulator, botToken);
    const disconnect = new AbortController();
    const response = await streamAllPages({ call, params: { limit: "10" }, maxPages: 1000, signal: disconnect.signal, describeError });
    const reader = response.body!.getReader();
    await reader.read();
    disconnect.abort();
    const atAbort = calls.length;
    const rest = await reader.read().then(() => reader.read());
    expect(rest.done).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(atAbort + 1);
  });

  it("honours the emulator's 429 by waiting Retry-After, telling the reader, and then finishing", async () => {
    const { emulator, clock } = startEmulator({ users: 5000, rateLimits: true });
    const { botToken } = await install(emulator);
    const { call } = emulatorCaller(emulator, botToken);
    const waits: number[] = [];
    const response = await streamAllPages({
      call,
      params: { limit: "100" },
      maxPages: 1000,
      signal: new AbortController().signal,
      describeError,
      // The emulator's clock is fake: waiting is moving it forward.
      sleep: async (ms) => {
        waits.push(ms);
        clock.advance(ms);
      },
    });
    const events = await readAll(response);
    const limited = events.filter((e) => e.type === "ratelimited");
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ retryAfterS: expect.any(Number) });
    expect(waits[0]).toBe((limited[0] as { retryAfterS: number }).retryAfterS * 1000);
    expect(events.at(-1)).toMatchObject({ type: "done", items: memberCount(emulator.state.workspace) });
  });

  it("ends with invalid_cursor for a hand-edited cursor", async () => {
    const { emulator } = startEmulator({ users: 300 });
    const { botToken } = await install(emulator);
    const { call } = emulatorCaller(emulator, botToken);
    const response = await streamAllPages({
      call,
      params: { cursor: "dXNlcjpVMDAwMDAwMDE=" },
      maxPages: 10,
      signal: new AbortController().signal,
      describeError,
    });
    expect(await readAll(response)).toEqual([{ type: "error", error: "invalid_cursor", page: 1 }]);
  });
});
