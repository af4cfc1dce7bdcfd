import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { z } from "zod";
import { readSealedCookie, sealValue, unsealValue, writeSealedCookie } from "@/lib/http/sealed-cookie";
import { startTestConsole, type TestConsole } from "../support/console";

const OLD = randomBytes(32).toString("base64url");
const NEW = randomBytes(32).toString("base64url");

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

describe("sealing", () => {
  it("round-trips a value", async () => {
    const seal = await sealValue({ token: "secret-value", n: 1 }, { "1": OLD }, 60);
    expect(seal).not.toContain("secret-value");
    expect(await unsealValue(seal, { "1": OLD }, 60)).toEqual({ token: "secret-value", n: 1 });
  });

  it("reads a tampered or foreign seal as nothing", async () => {
    const seal = await sealValue({ a: 1 }, { "1": OLD }, 60);
    const flipped = seal.slice(0, 40) + (seal[40] === "A" ? "B" : "A") + seal.slice(41);
    expect(await unsealValue(flipped, { "1": OLD }, 60)).toBeUndefined();
    expect(await unsealValue("not a seal at all", { "1": OLD }, 60)).toBeUndefined();
    expect(await unsealValue("", { "1": OLD }, 60)).toBeUndefined();
    expect(await unsealValue(seal, { "1": NEW }, 60)).toBeUndefined();
  });

  it("rotates passwords: the newest seals, the older ones still unseal", async () => {
    const beforeRotation = await sealValue({ v: "old" }, { "1": OLD }, 60);
    const rotated = { "2": NEW, "1": OLD };
    expect(await unsealValue(beforeRotation, rotated, 60)).toEqual({ v: "old" });
    const afterRotation = await sealValue({ v: "new" }, rotated, 60);
    expect(await unsealValue(afterRotation, { "2": NEW }, 60)).toEqual({ v: "new" });
    expect(await unsealValue(afterRotation, { "1": OLD }, 60)).toBeUndefined();
  });

  it("clears an unreadable cookie and reads it as absent", async () => {
    const jar = new RequestCookieJar(new Request(testConsole.origin, { headers: { cookie: "sb_x=garbage" } }));
    const value = await runWithCookieJar(jar, () => readSealedCookie("sb_x", z.object({ v: z.string() })));
    expect(value).toBeUndefined();
    expect(jar.setCookieHeaders()).toEqual([expect.stringMatching(/^sb_x=; .*Max-Age=0/)]);
  });

  it("reads a correctly sealed value of another shape as absent, and clears it", async () => {
    const seal = await sealValue({ v: 42 }, { "1": process.env.SESSION_PASSWORD! }, 0);
    const jar = new RequestCookieJar(new Request(testConsole.origin, { headers: { cookie: `sb_x=${seal}` } }));
    expect(await runWithCookieJar(jar, () => readSealedCookie("sb_x", z.object({ v: z.string() })))).toBeUndefined();
    expect(jar.setCookieHeaders()).toEqual([expect.stringMatching(/^sb_x=; .*Max-Age=0/)]);
  });

  it("reads a cookie it has read before as its own copy each time, and as absent once its seal expires", async () => {
    const seal = await sealValue({ v: "kept", list: ["a"] }, { "1": process.env.SESSION_PASSWORD! }, 120);
    const schema = z.object({ v: z.string(), list: z.array(z.string()) });
    const read = () =>
      runWithCookieJar(new RequestCookieJar(new Request(testConsole.origin, { headers: { cookie: `sb_x=${seal}` } })), () => readSealedCookie("sb_x", schema));
    const first = await read();
    expect(first).toEqual({ v: "kept", list: ["a"] });
    first!.list.push("changed by the first request");
    expect(await read()).toEqual({ v: "kept", list: ["a"] });
    // Past the seal's own expiry (and the 60 s of clock skew the seal format allows).
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 120_000 + 61_000);
      expect(await read()).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses a value too large for one cookie with a clear error", async () => {
    const jar = new RequestCookieJar(new Request(testConsole.origin));
    await expect(runWithCookieJar(jar, () => writeSealedCookie("sb_big", { blob: randomBytes(4000).toString("hex") }, 60))).rejects.toMatchObject({
      code: "cookie_too_large",
    });
  });
});
