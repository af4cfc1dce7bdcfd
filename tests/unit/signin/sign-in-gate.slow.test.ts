import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isOpenPath } from "@/lib/signin/gate";
import { config, proxy } from "@/proxy";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { signIn, SIGN_IN_REDIRECT_URI } from "./support";
import { getStore } from "@/lib/store";

let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  // A sign-in reads the person's sign-out count from the store: open it (seconds for PGlite on a busy machine) before the first.
  await getStore();
});
afterAll(() => testConsole.close());

/** Every page and route of the console, read from app/ (a new one is covered without touching this test), with sample values for its segments. */
function consolePaths(dir = "app", prefix = ""): { path: string; kind: "page" | "route"; file: string }[] {
  const found: { path: string; kind: "page" | "route"; file: string }[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      const segment = entry.name
        .replace(/^\[\[\.\.\..+\]\]$/, "any/path")
        .replace(/^\[(.+)\]$/, (_, name: string) => (name === "method" ? "users.list" : "T1-A1"));
      found.push(...consolePaths(path.join(dir, entry.name), `${prefix}/${segment}`));
    } else if (entry.name === "page.tsx") found.push({ path: prefix || "/", kind: "page", file: path.join(dir, entry.name) });
    else if (entry.name === "route.ts") found.push({ path: prefix, kind: "route", file: path.join(dir, entry.name) });
  }
  return found;
}

async function throughGate(pathAndQuery: string, init: { method?: string; cookie?: string } = {}) {
  const headers = new Headers();
  if (init.cookie) headers.set("cookie", init.cookie);
  return proxy(new NextRequest(new URL(pathAndQuery, testConsole.origin), { method: init.method ?? "GET", headers }));
}

/** What the proxy does with a request: lets it through to the route, or answers itself. */
const passes = (response: Response) => response.headers.get("x-middleware-next") === "1";

describe("the sign-in gate (AUTH_MODE=oidc)", () => {
  const all = consolePaths();
  const gated = all.filter((p) => !isOpenPath(p.path));

  it("knows every page and route of the console, and leaves open only the install flow, sign-in, the Events API, health and readiness, the metrics and the token API (their own tokens) and the emulator", () => {
    expect(all.length).toBeGreaterThan(35);
    expect(
      all
        .filter((p) => isOpenPath(p.path))
        .map((p) => p.path)
        .sort(),
    ).toEqual([
      "/api/events",
      "/api/health",
      "/api/metrics",
      "/api/ready",
      "/api/v1/installations/T1-A1/token",
      "/api/v1/installations/T1-A1/token/report",
      "/auth/callback",
      "/auth/signed-out",
      "/auth/signin",
      "/auth/signout",
      "/emulator/any/path",
      "/oauth/callback",
      "/oauth/install",
      "/oauth/installed",
      "/signin",
    ]);
  });

  it("sends every page to the console's sign-in page, to come back to the same page", async () => {
    const pages = gated.filter((p) => p.kind === "page");
    expect(pages.map((p) => p.path).sort()).toEqual([
      "/",
      "/api-keys",
      "/docs/token-api",
      "/events",
      "/explorer",
      "/explorer/history",
      "/settings",
      "/webhooks",
      "/workspace",
    ]);
    for (const page of pages) {
      const response = await throughGate(`${page.path}?tab=1`);
      expect(response.status, page.path).toBe(307);
      const location = new URL(response.headers.get("location") ?? "");
      expect(`${location.port}${location.pathname}${location.search}`, page.path).toBe(
        `${new URL(testConsole.origin).port}/signin?next=${encodeURIComponent(`${page.path}?tab=1`)}`,
      );
    }
  });

  /** Calls an API route's own handlers (the proxy does not run for /api: each route checks the sign-in itself). */
  async function handlerOf(route: { file: string }, method: string) {
    const routeModule = (await import(/* @vite-ignore */ path.resolve(route.file))) as Record<string, unknown>;
    return routeModule[method] as ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) | undefined;
  }

  async function callRoute(route: { path: string; file: string }, method: string, cookie?: string): Promise<Response | undefined> {
    const handler = await handlerOf(route, method);
    if (!handler) return undefined;
    const headers = new Headers({ "x-switchboard-request": "1", origin: testConsole.origin });
    if (cookie) headers.set("cookie", cookie);
    const request = new NextRequest(new URL(route.path, testConsole.origin), { method, headers, ...(method === "GET" ? {} : { body: "{}" }) });
    return handler(request, { params: Promise.resolve({ id: "T1-A1", method: "users.list", appId: "A1" }) });
  }

  it("does not run the proxy for the API, whose routes check the sign-in themselves", () => {
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    for (const p of all) expect(matcher.test(p.path), p.path).toBe(!/^\/api(\/|$)/.test(p.path) && !p.path.startsWith("/emulator"));
    expect(matcher.test("/api")).toBe(false);
    expect(matcher.test("/apis-of-another-page")).toBe(true);
  });

  it("answers 401 sign_in_required on every API route, reads and writes alike", async () => {
    const routes = gated.filter((p) => p.kind === "route");
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      let methods = 0;
      for (const method of ["GET", "POST", "DELETE", "PUT", "PATCH"]) {
        const response = await callRoute(route, method);
        if (!response) continue;
        methods++;
        expect(response.status, `${method} ${route.path}`).toBe(401);
        expect(await response.json()).toMatchObject({ ok: false, error: "sign_in_required" });
      }
      expect(methods, route.path).toBeGreaterThan(0);
    }
  });

  it("lets the open paths through without a sign-in", async () => {
    for (const open of [
      "/oauth/install",
      "/oauth/callback?code=x&state=y",
      "/oauth/installed",
      "/auth/signin",
      "/auth/callback",
      "/api/events",
      "/api/health",
    ]) {
      expect(passes(await throughGate(open, { method: open === "/api/events" ? "POST" : "GET" })), open).toBe(true);
    }
    // Only the Events API's request URL: the browser's live feed of the events is the console's.
    expect((await throughGate("/api/events/stream")).status).toBe(401);
  });

  it("lets a signed-in browser through everywhere, and not once its cookie is tampered with (which it clears)", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await signIn(browser);
    for (const p of gated.filter((g) => g.kind === "page")) expect(passes(await throughGate(p.path, { cookie: browser.cookieHeader() })), p.path).toBe(true);
    // Every route that answers GET: reading is what a signed-in browser does everywhere.
    const readable = [];
    for (const route of gated.filter((g) => g.kind === "route")) if (await handlerOf(route, "GET")) readable.push(route);
    expect(readable.length).toBeGreaterThan(10);
    for (const route of readable) {
      const response = await callRoute(route, "GET", browser.cookieHeader());
      expect(response, route.path).toBeDefined();
      expect(response!.status, route.path).not.toBe(401);
      await response!.body?.cancel();
    }
    const seal = browser.cookies.get("sb_signin")!;
    const tampered = `sb_signin=${seal.slice(0, -4)}AAAA`;
    const refused = await callRoute({ path: "/api/session", file: "app/api/session/route.ts" }, "GET", tampered);
    expect(refused?.status).toBe(401);
    expect(refused?.headers.get("set-cookie")).toMatch(/^sb_signin=;.*Max-Age=0/);
    const page = await throughGate("/", { cookie: tampered });
    expect(page.status).toBe(307);
    expect(page.headers.get("set-cookie")).toMatch(/^sb_signin=;.*Max-Age=0/);
  });

  it("lets everything through with AUTH_MODE=none, as before", async () => {
    vi.resetModules();
    process.env.AUTH_MODE = "none";
    try {
      const { proxy: openProxy } = await import("@/proxy");
      for (const p of all) expect(passes(await openProxy(new NextRequest(new URL(p.path, testConsole.origin)))), p.path).toBe(true);
    } finally {
      process.env.AUTH_MODE = "oidc";
    }
  });
});
