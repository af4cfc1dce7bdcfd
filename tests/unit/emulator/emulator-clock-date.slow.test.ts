import { afterEach, describe, expect, it } from "vitest";
import { startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { createHarness, type Json } from "./support/emulator-harness";

describe("the emulator's Date header", () => {
  it("is written from the emulator's own clock on every answer, and follows POST /admin/clock", async () => {
    const h = createHarness();
    const before = await h.emulator.fetch(new Request(`${h.base}/api/auth.test`, { method: "POST" }));
    expect(before.headers.get("date")).toBe("Thu, 01 Jan 2026 09:00:00 GMT");
    expect((await h.admin("clock", { advance_s: 12.5 * 3600 })).status).toBe(200);
    for (const path of ["/api/auth.test", "/oauth/v2/authorize", "/nowhere", "/.well-known/emulator"]) {
      const answer = await h.emulator.fetch(new Request(`${h.base}${path}`));
      expect(answer.headers.get("date"), path).toBe("Thu, 01 Jan 2026 21:30:00 GMT");
    }
  });

  describe("over HTTP (the standalone server)", () => {
    let server: EmulatorServer | undefined;
    afterEach(() => server?.close());

    it("keeps the emulator's Date rather than the machine's", async () => {
      server = await startEmulatorServer({ users: 5 });
      const advanced = await fetch(`${server.url}/admin/clock`, {
        method: "POST",
        headers: { origin: `http://127.0.0.1:${server.port}`, "content-type": "application/json" },
        body: JSON.stringify({ advance_s: 13 * 3600 }),
      });
      expect(advanced.status).toBe(200);
      const answer = await fetch(`${server.url}/api/auth.test`, { method: "POST" });
      const skewS = (Date.parse(answer.headers.get("date") ?? "") - Date.now()) / 1000;
      expect(skewS).toBeGreaterThan(13 * 3600 - 2);
      expect(skewS).toBeLessThan(13 * 3600 + 2);
    });
  });
});

describe("GET {base}/.well-known/emulator", () => {
  it("says it is an emulator, its clock and the lifetimes the clock decides, without a credential and with no secret", async () => {
    const h = createHarness({ basePath: "/emulator", cursorTtlSeconds: 600, refreshGraceSeconds: 30 });
    await h.admin("clock", { advance_s: 3600 });
    const answer = await h.emulator.fetch(new Request(`${h.base}/.well-known/emulator`));
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Json;
    expect(body).toEqual({
      ok: true,
      emulator: true,
      instance_id: h.emulator.state.instanceId,
      clock: { now: "2026-01-01T10:00:00.000Z", now_ms: Date.UTC(2026, 0, 1, 10), offset_s: 3600, max_offset_s: 315_360_000, move: "POST {base}/admin/clock" },
      lifetimes_s: { access_token: 43_200, refresh_grace: 30, authorization_code: 600, cursor: 600 },
    });
  });

  it("names the emulator's state: the same on every read, another after a reset, different for another emulator", async () => {
    const h = createHarness();
    const read = async (harness = h) =>
      ((await (await harness.emulator.fetch(new Request(`${harness.base}/.well-known/emulator`))).json()) as Json).instance_id;
    const first = await read();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await read()).toBe(first);
    expect(await read(createHarness())).not.toBe(first);
    expect((await h.admin("reset", {})).status).toBe(200);
    const afterReset = await read();
    expect(afterReset).toMatch(/^[0-9a-f-]{36}$/);
    expect(afterReset).not.toBe(first);
  });

  it("answers even when the admin surface needs a token", async () => {
    const h = createHarness({ admin: { token: "t".repeat(40), requireToken: true } });
    expect((await h.emulator.fetch(new Request(`${h.base}/admin/clock`))).status).toBe(401);
    expect((await h.emulator.fetch(new Request(`${h.base}/.well-known/emulator`))).status).toBe(200);
  });
});
