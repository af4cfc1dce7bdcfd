import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { LoadGate } from "@/lib/installations/rotation/load-gate";
import { refreshDueTokens, type PassSummary, type RefresherSettings } from "@/lib/installations/rotation/refresher";
import { getRotationRuntime, type RotationRuntime } from "@/lib/installations/rotation/runtime";
import { describeUpstream } from "@/lib/platform/platform-time";
import { getStore, type Store } from "@/lib/store";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { advanceEmulatorClock } from "../signin/support";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Issue 43, the background refresher at scale: a clock jump makes every rotating token of a few hundred due
 * at once, and two instances on one PostgreSQL (each its own store: connections, lock queue, cache) drain
 * them with their refreshers. Each token is refreshed exactly once (the emulator counts its grants), the two
 * share the work (claims), and neither asks the platform more than its concurrency at a time: each instance
 * reaches the emulator through a door of its own that counts the oauth.v2.access calls under way (and holds
 * each a few milliseconds, as a platform across a network does, so that concurrency shows).
 */
const WORKSPACES = 150; // bot and user token each: 300 rotating tokens
const CONCURRENCY = 3;
const HORIZON_S = 7_200;
const SPREAD_S = 600;

let postgres: TestPostgres;
let testConsole: TestConsole;
let instances: Store[] = [];

/** An HTTP door in front of the emulator: passes every request through, counting oauth.v2.access calls under way. */
interface Door {
  url: string;
  inFlight: number;
  maxInFlight: number;
  refreshCalls: number;
  /** Each oauth.v2.access answer's HTTP status, when it came (Date.now). */
  answers: Array<{ status: number; at: number; refreshToken: string | null; retryAfterS: number | null }>;
  server: Server;
}

async function openDoor(upstream: string, holdMs: number): Promise<Door> {
  const door: Door = { url: "", inFlight: 0, maxInFlight: 0, refreshCalls: 0, answers: [], server: undefined as unknown as Server };
  door.server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const refresh = request.url?.endsWith("/api/oauth.v2.access") ?? false;
      if (refresh) {
        door.refreshCalls++;
        door.maxInFlight = Math.max(door.maxInFlight, ++door.inFlight);
      }
      const forward = async () => {
        if (refresh) await new Promise((resolve) => setTimeout(resolve, holdMs));
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string" && name !== "host") headers.set(name, value);
        const answer = await fetch(`${upstream}${request.url}`, {
          method: request.method,
          headers,
          ...(request.method === "GET" || request.method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        if (refresh)
          door.answers.push({
            status: answer.status,
            at: Date.now(),
            refreshToken: new URLSearchParams(Buffer.concat(chunks).toString()).get("refresh_token"),
            retryAfterS: answer.headers.has("retry-after") ? Number(answer.headers.get("retry-after")) : null,
          });
        const out: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding") out[name] = value;
        });
        response.writeHead(answer.status, out).end(body);
      };
      forward()
        .catch(() => response.writeHead(502).end())
        .finally(() => {
          if (refresh) door.inFlight--;
        });
    });
  });
  await new Promise<void>((resolve) => door.server.listen(0, "127.0.0.1", resolve));
  door.url = `http://127.0.0.1:${(door.server.address() as AddressInfo).port}/emulator`;
  return door;
}

beforeAll(async () => {
  postgres = await startPostgres();
  const url = await postgres.createDatabase("refresher_at_scale");
  testConsole = await startTestConsole(
    { DATABASE_URL: url, BACKGROUND_REFRESH: "false", REFRESH_HORIZON_S: String(HORIZON_S), REFRESH_SPREAD_S: String(SPREAD_S) },
    { workspaces: WORKSPACES },
  );
  delete process.env.DATA_DIR;
  const config = getConfig();
  const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
  instances = await Promise.all([openStore({ kind: "postgres", url, keys }), openStore({ kind: "postgres", url, keys })]);
  // One installation of the rotating app per workspace, through the console's own install (OAuth).
  const teams = [...testConsole.emulator.emulator.state.workspaces.values()].map((w) => w.team.id);
  expect(teams).toHaveLength(WORKSPACES);
  for (let i = 0; i < teams.length; i += 10) {
    await Promise.all(
      teams.slice(i, i + 10).map(async (team) => {
        const done = await installIn(new TestBrowser(testConsole.origin), `?team=${team}`);
        if (done.status !== 303) throw new Error(`install in ${team} answered ${done.status}`);
      }),
    );
  }
}, 300_000);
afterAll(async () => {
  await Promise.all(instances.map((s) => s.close()));
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

const grantsPerInstallation = () => [...testConsole.emulator.emulator.state.installations.values()].map((i) => i.refreshGrants);

/** One instance's refresher, pass after pass, as its loop runs them while a backlog lasts: until a pass finds nothing. */
async function drain(runtime: RotationRuntime, settings: RefresherSettings) {
  const total = { passes: 0, due: 0, refreshed: 0, alreadyFresh: 0, failed: 0, needsReinstall: 0 };
  for (;;) {
    const pass: PassSummary = await refreshDueTokens(runtime, settings);
    total.passes++;
    for (const key of ["due", "refreshed", "alreadyFresh", "failed", "needsReinstall"] as const) total[key] += pass[key];
    if (!pass.backlog && pass.due === 0) return total;
  }
}

describe("the background refresher at scale, two instances on one PostgreSQL", () => {
  it("a clock jump of 11.5 hours makes 300 tokens due at once: each refreshed exactly once, both instances working, neither above its concurrency", async () => {
    expect(grantsPerInstallation().every((n) => n === 0)).toBe(true);
    const doors = await Promise.all([openDoor(testConsole.origin, 15), openDoor(testConsole.origin, 15)]);
    try {
      await advanceEmulatorClock(testConsole.origin, 11.5 * 3600);
      // The console's view of the platform's time (read from the emulator's answers) moves with it.
      await describeUpstream(getRotationRuntime(), true);
      const settings: RefresherSettings = { horizonS: HORIZON_S, spreadS: SPREAD_S, alert: null, concurrency: CONCURRENCY };
      const runtimes = instances.map((store, i): RotationRuntime => ({ ...getRotationRuntime(), baseUrl: doors[i]!.url, store: async () => store }));
      // Each instance a process of its own: its own gate, at its bound (its event loop keeps up).
      const [a, b] = await Promise.all(
        runtimes.map((runtime) => drain(runtime, { ...settings, gate: new LoadGate({ bound: CONCURRENCY, floor: 1, targetMs: 20 }) })),
      );

      // Every token refreshed, once: two grants (bot and user) per installation at the emulator, no more.
      const grants = grantsPerInstallation();
      expect(grants).toHaveLength(WORKSPACES);
      expect(grants.every((n) => n === 2)).toBe(true);
      expect(a!.refreshed + b!.refreshed).toBe(2 * WORKSPACES);
      expect(a!.failed + b!.failed + a!.needsReinstall + b!.needsReinstall).toBe(0);
      // The claims shared the backlog: each instance refreshed some, and neither asked for a token the other had.
      expect(a!.refreshed).toBeGreaterThan(0);
      expect(b!.refreshed).toBeGreaterThan(0);
      expect(doors[0]!.refreshCalls + doors[1]!.refreshCalls).toBe(2 * WORKSPACES);
      // Bounded concurrency toward the platform, as the platform saw it, on each instance.
      for (const door of doors) expect(door.maxInFlight).toBeLessThanOrEqual(CONCURRENCY);
      expect(Math.max(...doors.map((d) => d.maxInFlight))).toBe(CONCURRENCY);
      // Nothing left due, and every installation still active (no refresh token spent twice).
      const store = instances[0]!;
      const now = getRotationRuntime().now();
      expect(await store.installations.tokensExpiringBefore(now + (HORIZON_S + SPREAD_S) * 1000, 10)).toEqual([]);
      const states = (await store.installations.list()).map((s) => s.state);
      expect(states.filter((s) => s !== "active")).toEqual([]);
    } finally {
      await Promise.all(doors.map((d) => new Promise((resolve) => d.server.close(resolve))));
    }
  }, 240_000);

  it("waits the platform's Retry-After for a workspace that is rate limited, then refreshes its tokens once, with nothing in their timeline", async () => {
    const grantsBefore = grantsPerInstallation();
    const door = await openDoor(testConsole.origin, 0);
    try {
      // The tokens issued in the first drain expire 12 hours after it: another 11.5 hours make them all due again.
      await advanceEmulatorClock(testConsole.origin, 11.5 * 3600);
      await describeUpstream(getRotationRuntime(), true);
      // Rate limits on, and the workspace of the token due first (in the refresher's first batch) has used its
      // minute of oauth.v2.access (600 calls, special tier) 50 s ago on the emulator's clock: the platform
      // answers 429 with a Retry-After of up to 10 s until they leave the window.
      const emulator = testConsole.emulator.emulator;
      emulator.state.rateLimitsEnabled = true;
      const [first] = await instances[0]!.installations.tokensExpiringBefore(Number.MAX_SAFE_INTEGER, 1);
      const limitedTeam = (await instances[0]!.installations.get(first!.installationId, { fresh: true }))!.team.id;
      const limited = [...emulator.state.installations.values()].find((i) => i.teamId === limitedTeam)!;
      const at = emulator.clock.now() - 50_000;
      emulator.state.rateWindows.set(
        `oauth.v2.access:${limited.teamId}:${limited.appId}`,
        Array.from({ length: 600 }, () => at),
      );
      const limitedId = (await instances[0]!.installations.list()).find((i) => i.team.id === limited.teamId)!.id;
      // Its bot token and its installer's user token.
      const limitedTokens = new Set((await instances[0]!.installations.listTokens(limitedId)).map((t) => t.refreshToken));
      expect(limitedTokens.size).toBe(2);
      const started = Date.now();
      const settings: RefresherSettings = { horizonS: HORIZON_S, spreadS: SPREAD_S, alert: null, concurrency: CONCURRENCY };
      const runtime: RotationRuntime = { ...getRotationRuntime(), baseUrl: door.url, store: async () => instances[0]! };
      // The refresher's loop: passes while a backlog lasts, then one every so often (here 200 ms) until nothing is due.
      for (let waited = 0; ; waited += 200) {
        const pass = await drain(runtime, settings);
        const left = await instances[0]!.installations.tokensExpiringBefore(getRotationRuntime().now() + (HORIZON_S + SPREAD_S) * 1000, 1);
        if (left.length === 0 && pass.failed === 0) break;
        if (waited > 30_000) throw new Error("the rate-limited workspace's tokens were never refreshed");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // Asked once or twice (its bot and user token may both be under way) before the 429 came back, then not
      // until its Retry-After.
      const asked = door.answers.filter((a) => limitedTokens.has(a.refreshToken ?? ""));
      const refused = asked.filter((a) => a.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused.length).toBeLessThanOrEqual(2);
      expect(door.answers.filter((a) => a.status === 429)).toHaveLength(refused.length);
      const granted = asked.filter((a) => a.status === 200);
      expect(granted).toHaveLength(2);
      const retryAfterS = refused[0]!.retryAfterS!;
      expect(retryAfterS).toBeGreaterThanOrEqual(1);
      for (const grant of granted) expect(grant.at - refused[0]!.at).toBeGreaterThanOrEqual(retryAfterS * 1000 - 50);
      expect(refused[0]!.at - started).toBeLessThan(retryAfterS * 1000);
      // Every token refreshed once more, the limited workspace's too; nothing said it failed.
      grantsPerInstallation().forEach((n, i) => expect(n).toBe(grantsBefore[i]! + 2));
      const { entries } = await instances[0]!.installations.pageTimeline(limitedId, { limit: 50 });
      expect(entries.map((e) => e.entry.type)).not.toContain("refresh_failed");
      expect((await instances[0]!.installations.get(limitedId, { fresh: true }))!.state).toBe("active");
    } finally {
      testConsole.emulator.emulator.state.rateLimitsEnabled = false;
      await new Promise((resolve) => door.server.close(resolve));
    }
  }, 120_000);
  it("while an instance's event loop lags, its refresher keeps to the gate's floor, and every token is still refreshed once", async () => {
    const grantsBefore = grantsPerInstallation();
    const door = await openDoor(testConsole.origin, 15);
    try {
      // The tokens of the second drain are all due again.
      await advanceEmulatorClock(testConsole.origin, 11.5 * 3600);
      await describeUpstream(getRotationRuntime(), true);
      const bound = 8;
      const gate = new LoadGate({ bound, floor: 2, targetMs: 20 });
      // The console is late on its timers (a window at 150 ms beyond the target): the refresher makes room.
      gate.adjust(150);
      gate.adjust(150);
      expect(gate.allowed).toBe(2);
      const runtime: RotationRuntime = { ...getRotationRuntime(), baseUrl: door.url, store: async () => instances[0]! };
      const total = await drain(runtime, { horizonS: HORIZON_S, spreadS: SPREAD_S, alert: null, concurrency: bound, gate });
      // At most the floor under way at the platform, though its bound allowed four times as many.
      expect(door.maxInFlight).toBe(2);
      expect(total.refreshed).toBe(2 * WORKSPACES);
      grantsPerInstallation().forEach((n, i) => expect(n).toBe(grantsBefore[i]! + 2));
      expect(gate.inFlight).toBe(0);
    } finally {
      await new Promise((resolve) => door.server.close(resolve));
    }
  }, 240_000);
});
