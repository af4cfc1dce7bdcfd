import { OPERATOR } from "@/lib/viewer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { refreshAccessToken } from "@/lib/platform";
import { AppError } from "@/lib/http/app-error";
import { callWithFreshToken } from "@/lib/installations/rotation/freshness";
import { getSessionInstallations } from "@/lib/installations/actions/list-installations";
import { type InstallationRecord } from "@/lib/installations/record";
import { getRotationRuntime, type RotationRuntime } from "@/lib/installations/rotation/runtime";
import { startTestConsole, TestBrowser, type TestConsole, forgetAllInstallations } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  // No grace period upstream: a refresh token used twice fails at once, so a lost pair shows.
  testConsole = await startTestConsole({}, { refreshGraceSeconds: 0 });
});
afterAll(() => testConsole.close());
beforeEach(async () => {
  await forgetAllInstallations();
  await fetch(`${testConsole.origin}/emulator/admin/reset`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: "{}",
  });
});

async function installed(): Promise<InstallationRecord> {
  const browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser)).status).toBe(303);
  expect((await browser.send(sessionRoute, "/api/session")).status).toBe(200);
  const [installation] = await getSessionInstallations({ viewer: OPERATOR });
  if (!installation) throw new Error("no installation");
  return installation;
}

async function faults(body: Record<string, unknown>) {
  const response = await fetch(`${testConsole.origin}/emulator/admin/faults`, {
    method: "POST",
    headers: { origin: testConsole.origin, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

describe("an early refresh that fails for a passing reason", () => {
  it("does not fail a call whose token has not expired: the call goes out with the current token", async () => {
    const installation = await installed();
    // The platform fails every refresh with a 500 for now; the token has 5 minutes left by our clock.
    await faults({ error_rate: 1, methods: ["oauth.v2.access"] });
    try {
      const runtime: RotationRuntime = {
        ...getRotationRuntime(),
        now: () => (installation.bot?.expiresAt ?? 0) - 5 * 60_000,
      };
      const written: InstallationRecord[] = [];
      const outcome = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, runtime, async (i) => {
        written.push(i);
      });
      expect(outcome.result.ok).toBe(true);
      expect(outcome.refreshed).toBe(false);
      expect(outcome.installation.bot?.value).toBe(installation.bot?.value);
      expect(written).toEqual([]);
    } finally {
      await faults({ error_rate: 0, methods: [] });
    }
  });

  it("still fails the call when the token has already expired", async () => {
    const installation = await installed();
    await faults({ error_rate: 1, methods: ["oauth.v2.access"] });
    try {
      const runtime: RotationRuntime = {
        ...getRotationRuntime(),
        now: () => (installation.bot?.expiresAt ?? 0) + 60_000,
      };
      const error = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, runtime).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBeGreaterThanOrEqual(500);
    } finally {
      await faults({ error_rate: 0, methods: [] });
    }
  });

  it("still fails the call when the platform refuses the refresh token for good", async () => {
    const installation = await installed();
    // The refresh token is spent outside the console (no grace period), then the early refresh tries it.
    const runtime0 = getRotationRuntime();
    await refreshAccessToken({
      baseUrl: runtime0.baseUrl,
      credentials: runtime0.credentialsFor(installation.appKey),
      refreshToken: installation.bot!.refreshToken!,
      timeoutMs: 5_000,
    });
    const runtime: RotationRuntime = {
      ...getRotationRuntime(),
      now: () => (installation.bot?.expiresAt ?? 0) - 5 * 60_000,
    };
    const error = await callWithFreshToken(installation, { tokenKind: "bot", method: "auth.test" }, runtime).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "needs_reinstall", status: 409 });
  });
});
