import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as readyRoute } from "@/app/api/ready/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { closeStore } from "@/lib/store";
import { sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installation } from "./support/contract";

/** What the server's logger writes, line by line (the real logger, with its format and redaction). */
const logLines = vi.hoisted(() => [] as string[]);
vi.mock("@/lib/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/log")>();
  return { ...actual, logger: actual.createLogger("info", { write: (line: string) => void logLines.push(line) }) };
});

/**
 * Issue 37.6 as an operator meets it: a console whose store SESSION_PASSWORD's keys sealed, restarted with
 * ENCRYPTION_KEYS=K1. It answered 503 store_unavailable everywhere while /api/ready said 200. Now it serves what
 * it had, re-seals it with K1 in the background, and says in its log and its readiness that the old key is no
 * longer needed.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "switchboard-adopt-console-"));
const sessionPassword = randomBytes(32).toString("base64url");
const record = installation({ appKey: "console", installedBy: undefined });
let testConsole: TestConsole;

beforeAll(async () => {
  const before = await openStore({ kind: "pglite", dataDir, keys: sealingKeys([], [sessionPassword]) });
  await before.installations.put(record);
  await before.webhooks.add({
    owner: null,
    url: `https://hooks.example.test/services/T1/B1/${randomBytes(8).toString("hex")}`,
    label: "idle",
    maskedUrl: "…",
    createdAt: 1,
  });
  await before.close();
  testConsole = await startTestConsole({
    DATA_DIR: dataDir,
    SESSION_PASSWORD: sessionPassword,
    ENCRYPTION_KEYS: randomBytes(32).toString("base64"),
    LOG_LEVEL: "info",
    BACKGROUND_REFRESH: "false",
  });
}, 60_000);
afterAll(async () => {
  await closeStore();
  await testConsole?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("a console restarted with ENCRYPTION_KEYS over a store SESSION_PASSWORD's keys sealed", () => {
  it("serves what it had, re-seals it in the background, and says when the old key is no longer needed", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const response = await browser.send(sessionRoute, "/api/session");
    expect(response.status).toBe(200);
    const { installations } = (await response.json()) as { installations: Array<{ id: string; state: string; bot: { masked: string } | null }> };
    expect(installations.find((i) => i.id === record.id)).toMatchObject({ state: "active", bot: { masked: expect.any(String) } });

    await expect.poll(() => logLines.find((line) => line.includes("store secrets:")), { timeout: 30_000 }).toBeDefined();
    const line = JSON.parse(logLines.find((l) => l.includes("store secrets:"))!) as { level: number; msg: string; resealed: number };
    // How many the background re-sealed depends on what the requests rewrote first (a read fills in the installation's
    // emulator instance and seals it anew): at least the idle pasted webhook, which nothing else rewrites.
    expect(line.level).toBe(30);
    expect(line.resealed).toBeGreaterThanOrEqual(1);
    expect(line.msg).toMatch(/Every secret in the store is sealed with ENCRYPTION_KEYS .*The store no longer needs SESSION_PASSWORD \(derived\)/);

    const ready = await readyRoute();
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { secrets: { ok: boolean; note: string } } }).checks.secrets).toMatchObject({
      ok: true,
      note: expect.stringContaining("The store no longer needs SESSION_PASSWORD (derived)"),
    });
  }, 60_000);
});
