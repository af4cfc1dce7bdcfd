import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as sessionRoute } from "@/app/api/session/route";
import { nulPath } from "@/lib/http/json-body";
import { startTestConsole, TestBrowser, type RouteFn, type TestConsole } from "../support/console";

/**
 * Issue 37.10: PostgreSQL's text cannot hold a NUL character, so one that reaches an insert is a 500 or a
 * lost row. The rule sits at the edge, once: every JSON body a route parses with its schema (parseJsonBody)
 * and every query it parses (parseQuery) is refused with 400 nul_character naming the field. This file checks
 * that every state-changing route of the console goes through it, or reads no body, or is one of the few
 * whose body is not the console's to keep (named below, with why).
 */

const APP = path.join(process.cwd(), "app");
const STATE_CHANGING = /export (?:const|async function|function) (POST|PUT|PATCH|DELETE)\b/g;

/** Routes that read a body they do not keep, and why the NUL rule is not theirs. */
const NOT_KEPT: Record<string, string> = {
  "api/call/[method]/route.ts": "a Web API call's parameters, forwarded to the platform as sent and never stored",
  "api/events/route.ts": "the platform's signed Events API request: verified, relayed to the live feed, never stored",
};

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

const stateChanging = routeFiles(APP)
  .map((file) => ({ file, relative: path.relative(APP, file).split(path.sep).join("/"), source: readFileSync(file, "utf8") }))
  .map((route) => ({ ...route, methods: [...route.source.matchAll(STATE_CHANGING)].map((m) => m[1]!) }))
  .filter((route) => route.methods.length > 0);

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
});
afterAll(() => testConsole?.close());

describe("a NUL character in what the console's routes are sent", () => {
  it("finds the console's state-changing routes (the scan itself works)", () => {
    expect(stateChanging.map((r) => r.relative)).toEqual(
      expect.arrayContaining(["api/api-keys/route.ts", "api/webhooks/send/route.ts", "api/webhooks/route.ts"]),
    );
    expect(stateChanging.length).toBeGreaterThan(15);
  });

  it("every state-changing route parses its body with parseJsonBody, reads none, or is named as not keeping it", () => {
    for (const route of stateChanging) {
      const readsBody = /request\.(json|text|formData|arrayBuffer|body)\b|readBody|readBounded/.test(route.source);
      const parsesWithTheRule = route.source.includes("parseJsonBody(");
      if (NOT_KEPT[route.relative]) continue;
      expect(readsBody && !parsesWithTheRule, `${route.relative} reads its body without parseJsonBody, which refuses NUL characters`).toBe(false);
    }
  });

  it("every route that parses a body answers 400 nul_character naming the field, before it checks anything of the body", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const parsing = stateChanging.filter((route) => route.source.includes("parseJsonBody("));
    expect(parsing.length).toBeGreaterThan(10);
    const params = { id: "wh_x", appId: "A0123456789", method: "chat.postMessage", teamId: "T0123456789" };
    const refused: string[] = [];
    for (const route of parsing) {
      const handlers = (await import(route.file)) as Record<string, RouteFn>;
      for (const method of route.methods) {
        const answer = await browser.send(handlers[method]!, `/${path.dirname(route.relative)}`, {
          method,
          params,
          json: { name: "a\u0000b", label: "ok", text: "ok" },
        });
        const body = (await answer.json()) as { error?: string; message?: string };
        expect(answer.status, `${method} ${route.relative}`).toBeLessThan(500);
        if (body.error !== "nul_character") continue;
        expect(answer.status).toBe(400);
        expect(body.message).toContain('field "name"');
        refused.push(route.relative);
      }
    }
    // A file's other verb (a DELETE beside the POST) reads no body: each file's parsing verb refused it.
    expect(new Set(refused)).toEqual(new Set(parsing.map((route) => route.relative)));
  });

  it("a query parameter with a NUL character is refused the same way", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const answer = await browser.send(sessionRoute, "/api/session?q=a%00b");
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ ok: false, error: "nul_character", message: expect.stringContaining('query parameter "q"') });
    expect((await browser.send(sessionRoute, "/api/session?q=ab")).status).toBe(200);
  });

  it("a path parameter with a NUL character (/api/api-keys/%00) is refused by every route, GET included, before the store sees it", async () => {
    const browser = new TestBrowser(testConsole.origin);
    const withParams = routeFiles(APP).filter(
      (file) => /\[[^\]]+\]/.test(file) && !file.includes(`${path.sep}v1${path.sep}`) && !file.includes(`${path.sep}emulator${path.sep}`),
    );
    expect(withParams.length).toBeGreaterThan(5);
    for (const file of withParams) {
      const relative = path.relative(APP, file).split(path.sep).join("/");
      const handlers = (await import(file)) as Record<string, RouteFn>;
      const names = [...relative.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => m[1]!);
      for (const method of ["GET", "POST", "DELETE", "PUT", "PATCH"].filter((m) => handlers[m])) {
        const answer = await browser.send(handlers[method]!, `/${path.dirname(relative)}`, {
          method,
          params: Object.fromEntries(names.map((name) => [name, "a\u0000b"])),
          ...(method === "GET" || method === "DELETE" ? {} : { json: {} }),
        });
        expect(answer.status, `${method} ${relative}`).toBe(400);
        expect(await answer.json(), `${method} ${relative}`).toMatchObject({ error: "nul_character", message: expect.stringContaining("part of the address") });
      }
    }
  });

  it("finds a NUL character in a key or a string at any depth, and names where", () => {
    expect(nulPath({ a: ["x", { b: "y\u0000" }] })).toBe("a.1.b");
    expect(nulPath({ "k\u0000": 1 })).toBe("k\u0000");
    expect(nulPath("\u0000")).toBe("");
    expect(nulPath({ a: "\\u0000 (escaped: six characters, no NUL)", n: 0 })).toBeUndefined();
  });
});
