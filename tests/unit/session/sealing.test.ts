import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { RequestCookieJar, runWithCookieJar } from "@/lib/http/cookie-jar";
import { z } from "zod";
import { getSessionInstallations } from "@/lib/installations/list-installations";
import { MAX_INSTALLATIONS } from "@/lib/installations/store";
import { readSealedCookie, sealValue, unsealValue, writeSealedCookie } from "@/lib/session/sealed-cookie";
import { saveInstallation } from "@/lib/installations/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

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

describe("the session in cookies", () => {
  it("reads a tampered installation cookie as an empty session, never a 500", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await installIn(browser);
    const name = [...browser.cookies.keys()].find((k) => k.startsWith("sb_inst_")) ?? "";
    const value = browser.cookies.get(name) ?? "";
    browser.cookies.set(name, value.slice(0, 30) + (value[30] === "x" ? "y" : "x") + value.slice(31));
    const response = await browser.send(sessionRoute, "/api/session");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { installations: unknown[] }).installations).toEqual([]);
    expect(browser.cookies.has(name)).toBe(false);
  });

  it("a sealed installation cookie of another shape reads as absent: the session answers 200, never a 500", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await installIn(browser);
    const name = [...browser.cookies.keys()].find((k) => k.startsWith("sb_inst_")) ?? "";
    // What an older or newer version of the console could have sealed: the right password, another shape.
    browser.cookies.set(name, encodeURIComponent(await sealValue({ id: name.slice(8), pending: "not an array" }, { "1": process.env.SESSION_PASSWORD! }, 0)));
    const response = await browser.send(sessionRoute, "/api/session");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { installations: unknown[] }).installations).toEqual([]);
    expect(browser.cookies.has(name)).toBe(false);
  });

  it("reads an installation sealed when the legacy app was called emulator-legacy as the legacy app's", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const sealedBefore = {
      id: "T9-A9",
      appKey: "emulator-legacy",
      appId: "A9",
      team: { id: "T9", name: "Older Workspace" },
      bot: { value: "xoxb-9-long-lived-token", scopes: ["users:read"] },
      state: "active",
      installedAt: 1,
      updatedAt: 1,
    };
    browser.cookies.set("sb_inst_T9-A9", encodeURIComponent(await sealValue(sealedBefore, { "1": process.env.SESSION_PASSWORD! }, 0)));
    const response = await browser.send(sessionRoute, "/api/session");
    const [installation] = ((await response.json()) as { installations: { id: string; app: { key: string } }[] }).installations;
    expect(installation).toMatchObject({ id: "T9-A9", app: { key: "legacy" } });
  });

  it("a same-name cookie planted at another path neither hides nor deletes the real installation", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await installIn(browser);
    const [name, real] = [...browser.cookies].find(([k]) => k.startsWith("sb_inst_")) ?? ["", ""];
    // A browser sends the longer path's cookie first: a sibling subdomain's `Path=/api` copy comes before the real one.
    for (const planted of ["garbage", encodeURIComponent(await sealValue({ other: true }, { "1": NEW }, 0))]) {
      const request = new Request(new URL("/api/session", testConsole.origin), {
        headers: { cookie: `${name}=${planted}; ${name}=${real}`, "x-switchboard-request": "1" },
      });
      const response = await sessionRoute(request, { params: Promise.resolve({}) });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { installations: unknown[] }).installations).toHaveLength(1);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
  });

  it("keeps up to the maximum of installations, each cookie under 4 KB, and says clearly when there is no room", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await installIn(browser);
    await installIn(browser, "?app=legacy");
    const jar = new RequestCookieJar(browser.request("/"));
    await runWithCookieJar(jar, async () => {
      const [real] = await getSessionInstallations();
      if (!real) throw new Error("no installation");
      // More workspaces than the emulator has: the same record under other team ids, tokens as long as real ones.
      // Two were installed for real; fill the rest of the room.
      const teams = Array.from({ length: MAX_INSTALLATIONS - 2 }, (_, i) => `T${i + 1}`);
      for (const team of teams) await saveInstallation({ ...real, id: `${team}-${real.appId}`, team: { id: team, name: `Team ${team}` } });
      await expect(saveInstallation({ ...real, id: `T9-${real.appId}`, team: { id: "T9", name: "one too many" } })).rejects.toMatchObject({
        code: "too_many_installations",
        status: 409,
      });
    });
    browser.absorb(jar.applyTo(new Response(null)));
    const session = (await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { team: { id: string } }[] };
    expect(session.installations).toHaveLength(MAX_INSTALLATIONS);
    const sizes = [...browser.cookies].filter(([name]) => name.startsWith("sb_inst_")).map(([name, value]) => name.length + value.length);
    expect(sizes).toHaveLength(MAX_INSTALLATIONS);
    for (const size of sizes) expect(size).toBeLessThan(4000);
    // Node's HTTP server accepts 16 KB of headers: the installations leave room for everything else.
    expect(browser.cookieHeader().length).toBeLessThan(12_000);
  });
});
