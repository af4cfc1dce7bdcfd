import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as callRoute } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { maskToken } from "@/lib/platform";
import { findInstallation } from "@/lib/installations/repository";
import { forgetAllInstallations, startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

// The platform (the emulator, served over HTTP as a standalone server) answers users.list slowly. Both
// tokens are due together: the refresh window is as long as a token lives, so a call refreshes the kind it
// uses before calling. No grace period upstream: a spent refresh token fails at once, so a write that put
// back a spent one shows at its next use. (The same across two instances: crossed-refreshes-postgres.test.ts.)
let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ REFRESH_WINDOW_S: "43200" }, { refreshGraceSeconds: 0 });
});
afterAll(async () => {
  await testConsole?.close();
});
beforeEach(async () => {
  await forgetAllInstallations();
  await admin("reset", {});
});

async function admin(path: string, body: unknown) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: testConsole.origin },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`admin/${path}: ${response.status} ${await response.text()}`);
}

/** The refresh tokens the platform has seen used (spent), by their masked value. */
async function spentRefreshTokens(): Promise<Set<string>> {
  const state = (await (await fetch(`${testConsole.origin}/emulator/admin/state`, { headers: { origin: testConsole.origin } })).json()) as {
    tokens: { kind: string; masked: string; used_at: string | null }[];
  };
  return new Set(state.tokens.filter((t) => t.kind === "refresh" && t.used_at !== null).map((t) => t.masked));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = (browser: TestBrowser, id: string, method: string, token: "bot" | "user") =>
  browser.send(callRoute, `/api/call/${method}?installation=${id}&token=${token}`, { params: { method } });

describe("a slow bot call and a user call, both tokens due", () => {
  for (const offsetMs of [300, 1500]) {
    it(`leaves only unspent refresh tokens in the store (user call ${offsetMs} ms later), and later calls work`, async () => {
      const browser = new TestBrowser(testConsole.origin);
      expect((await installIn(browser)).status).toBe(303);
      const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
      await admin("faults", { latency_ms: 2000, methods: ["users.list"] });

      // A: the bot token refreshes, then users.list takes 2 s. B refreshes the user token meanwhile.
      const slowBotCall = call(browser, id, "users.list", "bot");
      await sleep(offsetMs);
      const userCall = call(browser, id, "auth.test", "user");
      for (const response of [await userCall, await slowBotCall]) {
        expect(response.status).toBe(200);
        expect(response.headers.get("x-token-refreshed")).toBe("1");
      }
      const kept = (await findInstallation(id, { fresh: true }))!;
      const spent = await spentRefreshTokens();
      expect(spent.has(maskToken(kept.bot!.refreshToken!))).toBe(false);
      expect(spent.has(maskToken(kept.user!.refreshToken!))).toBe(false);

      await admin("faults", { latency_ms: 0, methods: [] });
      for (const kind of ["user", "bot"] as const) {
        const later = await call(browser, id, "auth.test", kind);
        expect(later.status).toBe(200);
        expect(((await later.json()) as { ok: boolean }).ok).toBe(true);
      }
    });
  }
});
