import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError, parseJsonBody } from "@/lib/http";
import { toErrorResponse } from "@/lib/http/error-response";
import { handleRoute } from "@/lib/access/handle-route";
import { getCookieJar } from "@/lib/http/cookie-jar";

const ORIGIN = "http://console.test";
const saved = { ...process.env };
beforeAll(() => {
  Object.assign(process.env, { APP_ORIGIN: ORIGIN, SESSION_PASSWORD: "p".repeat(32), EMULATOR_ADMIN_TOKEN: "a".repeat(32), LOG_LEVEL: "silent" });
  // console.test is a host beyond this machine: such a console must say who may use it.
  process.env.AUTH_MODE = "none";
});
afterAll(() => {
  process.env = saved;
});

const echo = handleRoute(async (request) => Response.json({ body: await request.text() }), { mutating: true, maxBodyBytes: 100 });
const post = (headers: Record<string, string>, body = "{}") => echo(new Request(`${ORIGIN}/api/x`, { method: "POST", headers, body }));

describe("handleRoute", () => {
  it("accepts a state-changing request from the console's own origin", async () => {
    const response = await post({ origin: ORIGIN });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: "{}" });
  });

  it("refuses another origin, a cross-site request and a request with no Origin with 403", async () => {
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post({})).status).toBe(403);
    expect((await post({ "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("refuses a read that could be another site's link, unless it says it comes from the console", async () => {
    const read = handleRoute(() => Response.json({ ok: true }), { rejectCrossSite: true });
    const get = (headers: Record<string, string>) => read(new Request(`${ORIGIN}/api/call/chat.postMessage?text=hi`, { headers }));
    // A browser without Fetch Metadata following a link from another page sends neither Origin nor Sec-Fetch-Site.
    expect((await get({})).status).toBe(403);
    expect((await get({ "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await get({ origin: "https://evil.example", "x-switchboard-request": "1" })).status).toBe(403);
    expect((await get({ "x-switchboard-request": "1" })).status).toBe(200);
    expect((await get({ "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await get({ origin: ORIGIN })).status).toBe(200);
  });

  it("refuses a DNS rebinding page: another Host, even with Sec-Fetch-Site same-origin and its own Origin", async () => {
    const read = handleRoute(() => Response.json({ secret: "session data" }));
    const get = (host: string, headers: Record<string, string> = {}) => read(new Request(`${ORIGIN}/api/session`, { headers: { host, ...headers } }));
    const rebound = await get("evil.example:3201", { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" });
    expect(rebound.status).toBe(403);
    expect(await rebound.json()).toMatchObject({ ok: false, error: "forbidden_host" });
    // The rebinding page's POST names its own origin, which is the origin the request arrived at: refused too.
    const posted = await echo(new Request("http://evil.example:3201/api/x", { method: "POST", headers: { origin: "http://evil.example:3201" }, body: "{}" }));
    expect(posted.status).toBe(403);
    expect(await posted.json()).toMatchObject({ error: "forbidden_host" });
    // The console's own name, and this machine's loopback names on PORT, are answered.
    expect((await get("console.test")).status).toBe(200);
    expect((await get("127.0.0.1:3000", { "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await get("localhost:8080")).status).toBe(403);
  });

  it("takes an Origin for an allowed host only, never merely because the request arrived there", async () => {
    // Host allowed, Origin a different loopback server (another port of this machine shares the cookies, not the origin).
    expect((await post({ host: "localhost:3000", origin: "http://localhost:8080" })).status).toBe(403);
    expect((await post({ host: "localhost:3000", origin: "http://localhost:3000" })).status).toBe(200);
  });

  it("acts on no top-level navigation, whatever Sec-Fetch-Site says: a link from a mail, a chat or a bookmark", async () => {
    const read = handleRoute(() => Response.json({ ok: true }), { rejectCrossSite: true });
    const get = (headers: Record<string, string>) => read(new Request(`${ORIGIN}/api/call/auth.revoke?installation=T1-A1`, { headers }));
    // What Chromium sends for a link opened from another application, or typed, or bookmarked.
    const fromOutside = { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", "sec-fetch-user": "?1" };
    const refused = await get(fromOutside);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ ok: false, error: "navigation_refused" });
    expect((await get({ ...fromOutside, "sec-fetch-site": "same-origin" })).status).toBe(403);
    expect((await get({ ...fromOutside, "x-switchboard-request": "1" })).status).toBe(403);
    expect((await get({ "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" })).status).toBe(403);
    // Sec-Fetch-Site: none without a navigation is not the console's fetch either.
    expect((await get({ "sec-fetch-site": "none" })).status).toBe(403);
    // The console's own fetch (and EventSource) goes through.
    expect((await get({ "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors", "sec-fetch-dest": "empty", "x-switchboard-request": "1" })).status).toBe(
      200,
    );
    // A state-changing route refuses a navigation (a form posted from the console's own page included).
    expect((await post({ origin: ORIGIN, "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" })).status).toBe(403);
  });

  it("lets the pages a browser navigates to (the OAuth install and callback) be navigated to", async () => {
    const page = handleRoute(() => new Response("page"), { navigable: true });
    const response = await page(
      new Request(`${ORIGIN}/oauth/install`, { headers: { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" } }),
    );
    expect(response.status).toBe(200);
  });

  it("answers 413 for a body over the limit, declared or streamed", async () => {
    expect((await post({ origin: ORIGIN }, "x".repeat(101))).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode("y".repeat(40)));
        controller.close();
      },
    });
    const streamed = await echo(new Request(`${ORIGIN}/api/x`, { method: "POST", headers: { origin: ORIGIN }, body: stream, duplex: "half" } as RequestInit));
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: string }).error).toBe("payload_too_large");
  });

  it("maps zod errors to 422 with paths but not values, and bad JSON to 400", async () => {
    const route = handleRoute(async (request) => Response.json(await parseJsonBody(request, z.object({ n: z.number() }))));
    const invalid = await route(new Request(`${ORIGIN}/`, { method: "POST", body: JSON.stringify({ n: "xoxb-secret-value" }) }));
    expect(invalid.status).toBe(422);
    const text = await invalid.text();
    expect(text).toContain('"path":"n"');
    expect(text).not.toContain("xoxb-secret-value");
    const notJson = await route(new Request(`${ORIGIN}/`, { method: "POST", body: "{" }));
    expect(notJson.status).toBe(400);
  });

  it("answers a plain 500 that exposes nothing for an unexpected error", async () => {
    const route = handleRoute(() => {
      throw new Error("boom at /secret/path with xoxb-123456789012");
    });
    const response = await route(new Request(`${ORIGIN}/`));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("boom");
    expect(text).not.toContain("xoxb");
    expect(JSON.parse(text)).toMatchObject({ ok: false, error: "internal_error" });
  });

  it("applies cookies set by the handler, even to an error response and a redirect", async () => {
    const failing = handleRoute(async () => {
      (await getCookieJar()).set("a", "1", { maxAgeS: 60 });
      throw new AppError("needs_reinstall", { message: "No." });
    });
    const response = await failing(new Request(`${ORIGIN}/`));
    expect(response.status).toBe(409);
    expect(response.headers.getSetCookie()).toEqual([expect.stringMatching(/^a=1; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/)]);
    const redirecting = handleRoute(async () => {
      (await getCookieJar()).set("b", "2", { maxAgeS: 60 });
      return Response.redirect(`${ORIGIN}/next`, 302);
    });
    const redirect = await redirecting(new Request(`${ORIGIN}/`));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.getSetCookie()[0]).toMatch(/^b=2/);
  });
});

describe("toErrorResponse", () => {
  it("answers one of the console's codes with the status and message its table row gives", async () => {
    const response = toErrorResponse(new AppError("unknown_installation"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ok: false, error: "unknown_installation", message: "No installation with this id." });
  });

  it("answers a relayed upstream error with the upstream's code, its status, the message and headers", async () => {
    const response = toErrorResponse(new AppError({ relayed: "ratelimited", status: 429 }, { message: "Slow down.", headers: { "retry-after": "3" } }));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.json()).toEqual({ ok: false, error: "ratelimited", message: "Slow down." });
  });
});
