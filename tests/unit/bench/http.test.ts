import { describe, expect, it } from "vitest";
import { BenchHttpError, expectJson, expectOk, expectPlatformOk } from "@/bench/http";

// A bench that cannot get what it needs must stop saying what it got: the status and the body.
describe("bench HTTP checks", () => {
  it("a refused console route stops the bench with its status and error body", async () => {
    const refused = new Response(JSON.stringify({ ok: false, error: "missing_origin", message: "send x-switchboard-request: 1" }), { status: 403 });
    const error = await expectJson(refused, "GET /api/session").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BenchHttpError);
    expect((error as Error).message).toBe('GET /api/session: HTTP 403 {"ok":false,"error":"missing_origin","message":"send x-switchboard-request: 1"}');
  });

  it("a 200 that is not JSON says so, with what it was", async () => {
    await expect(expectJson(new Response("<html>sign in</html>"), "GET /api/session")).rejects.toThrow(
      "GET /api/session (not JSON): HTTP 200 <html>sign in</html>",
    );
  });

  it("a platform answer with ok:false stops with the platform's error", async () => {
    const answer = new Response(JSON.stringify({ ok: false, error: "invalid_auth" }), { status: 200 });
    await expect(expectPlatformOk(answer, "users.list")).rejects.toThrow('users.list: HTTP 200 {"ok":false,"error":"invalid_auth"}');
  });

  it("passes what a bench needs through untouched", async () => {
    await expect(expectPlatformOk(new Response('{"ok":true,"members":[1,2]}'), "users.list")).resolves.toEqual({ ok: true, members: [1, 2] });
    const ok = new Response("body");
    await expect(expectOk(ok, "x")).resolves.toBe(ok);
    await expect(expectOk(new Response("gone", { status: 502 }), "chunk")).rejects.toThrow("chunk: HTTP 502 gone");
  });

  it("keeps a long error body to its first 500 characters", async () => {
    const error = (await expectJson(new Response("x".repeat(2000), { status: 500 }), "page").catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`page: HTTP 500 ${"x".repeat(500)}…`);
  });
});
