import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { GET as usesRoute } from "@/app/api/api-keys/[id]/uses/route";
import { GET as streamRoute } from "@/app/api/events/stream/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as readyRoute } from "@/app/api/ready/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { parseConfig } from "@/lib/config";
import { keepHistoryWrite, recordCallAfterAnswer, recordHistory } from "@/lib/call/call-history";
import { shutDown } from "@/lib/ops/shutdown";
import type { PlatformCallResult } from "@/lib/platform/call-method";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * Issue 28, graceful shutdown, run in this process (tests/e2e/hosted-ops.spec.ts sends SIGTERM to real
 * instances): readiness turns 503, every live event stream ends with a reconnect hint, the token API's
 * audit and the explorer's history entries are written before the store closes, and the shutdown reports that it finished within its bound.
 */
let testConsole: TestConsole;
let operator: TestBrowser;
let teamId: string;

beforeAll(async () => {
  // The embedded store on disk, which the shutdown closes (releasing DATA_DIR) and the test opens again to read.
  const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-shutdown-"));
  testConsole = await startTestConsole({ DATA_DIR: dataDir, BACKGROUND_REFRESH: "true", REFRESHER_INTERVAL_S: "1", SHUTDOWN_TIMEOUT_S: "10" });
  operator = new TestBrowser(testConsole.origin);
  const done = await installIn(operator);
  teamId = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!.split("-")[0]!;
});
afterAll(() => testConsole.close());

describe("a graceful shutdown", () => {
  it("is off for metrics without METRICS_TOKEN, which answers 404 saying how to turn them on", async () => {
    const response = await metricsRoute(new Request(`${testConsole.origin}/api/metrics`, { headers: { authorization: "Bearer anything" } }));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: "metrics_disabled", message: expect.stringContaining("METRICS_TOKEN") });
  });

  it("turns readiness to 503, ends each event stream with a reconnect hint, and writes the audit and the history entries before the store closes", async () => {
    expect((await readyRoute()).status).toBe(200);
    const created = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name: "shutdown test" } });
    const { key, apiKey } = (await created.json()) as { key: string; apiKey: { id: string } };
    // An answer whose audit row is still in the process's batch when the signal comes.
    const asked = await tokenRoute(new Request(`${testConsole.origin}/api/v1/installations/${teamId}/token`, { headers: { authorization: `Bearer ${key}` } }), {
      params: Promise.resolve({ teamId }),
    });
    expect(asked.status).toBe(200);
    const stream = await operator.send(streamRoute, "/api/events/stream");
    expect(stream.status).toBe(200);
    const reading = (async () => {
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += decoder.decode(value, { stream: true });
      }
    })();

    // A call answered just before the signal: its history entry is written after the answer went.
    const members = Array.from({ length: 4000 }, (_, i) => ({ id: `U${i}`, name: `member ${i}`, profile: { title: "x".repeat(40) } }));
    const rawText = JSON.stringify({ ok: true, members });
    recordCallAfterAnswer(
      {
        viewer: { kind: "operator", admin: true },
        method: "users.list",
        installationId: "shutdown-test",
        tokenKind: "bot",
        httpMethod: "GET",
        encoding: "form",
        args: {},
        dropped: [],
      },
      {
        ok: true,
        status: 200,
        body: JSON.parse(rawText),
        rawText,
        bytes: new TextEncoder().encode(rawText),
        headers: new Headers(),
        durationMs: 3,
      } as unknown as PlatformCallResult,
      Date.now(),
    );

    // And a Fetch all that ended as the signal came, its entry written later than the rest of the shutdown takes.
    let walkWritten = false;
    keepHistoryWrite(
      { kind: "operator", admin: true },
      new Promise((resolve) => setTimeout(resolve, 3_000))
        .then(() =>
          recordHistory(
            {
              viewer: { kind: "operator", admin: true },
              method: "conversations.list",
              installationId: "shutdown-test",
              tokenKind: "bot",
              httpMethod: "GET",
              encoding: "form",
              args: {},
              dropped: [],
            },
            {
              at: Date.now(),
              kind: "all",
              outcome: "cancelled",
              status: 200,
              durationMs: 5,
              summary: "Fetch all cancelled",
              count: 0,
              pages: 1,
              answer: null,
              answerBytes: 0,
              truncated: false,
            },
          ),
        )
        .then(() => {
          walkWritten = true;
        }),
    );

    const started = Date.now();
    expect(await shutDown("SIGTERM")).toBe(true);
    expect(walkWritten).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);

    const seen = await reading;
    expect(seen).toContain("event: snapshot");
    expect(seen).toMatch(/retry: \d{4}\n\n$/);
    const readiness = await readyRoute();
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ ready: false, shuttingDown: true });
    // The store was closed; opened again, its DATA_DIR has the answer's audit row.
    const uses = (await (await operator.send(usesRoute, `/api/api-keys/${apiKey.id}/uses`, { params: { id: apiKey.id } })).json()) as {
      uses: Array<{ status: number; teamId: string }>;
    };
    expect(uses.uses).toEqual([expect.objectContaining({ status: 200, teamId })]);
    // And the call's history entry, written before the store closed.
    const history = await (await getStore()).history.list(null, { installationId: "shutdown-test" });
    expect(history.entries).toEqual([
      expect.objectContaining({ method: "conversations.list", outcome: "cancelled" }),
      expect.objectContaining({ method: "users.list", outcome: "ok", truncated: true }),
    ]);
  });
});

describe("the shutdown's settings", () => {
  const base = { NODE_ENV: "test", SESSION_PASSWORD: "x".repeat(32) } as const;

  it("default to an immediate stop of new connections and a 20-second bound", () => {
    expect(parseConfig(base).ops).toEqual({ metricsToken: null, shutdownDelayS: 0, shutdownTimeoutS: 20 });
  });

  it("refuse a delay that leaves no time to finish, and a metrics token anyone could guess", () => {
    expect(() => parseConfig({ ...base, SHUTDOWN_DELAY_S: "20", SHUTDOWN_TIMEOUT_S: "20" })).toThrow(
      /SHUTDOWN_DELAY_S \(20\) must be shorter than SHUTDOWN_TIMEOUT_S \(20\)/,
    );
    expect(() => parseConfig({ ...base, METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN is shorter than 32 characters/);
    expect(parseConfig({ ...base, METRICS_TOKEN: "m".repeat(32), SHUTDOWN_DELAY_S: "5" }).ops).toEqual({
      metricsToken: "m".repeat(32),
      shutdownDelayS: 5,
      shutdownTimeoutS: 20,
    });
  });
});
