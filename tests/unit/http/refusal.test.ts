import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleRoute } from "@/lib/access/handle-route";
import { refusalPage, wantsPage } from "@/lib/http/refusal";

/**
 * Issue 36 item 10: a Host the console does not answer is refused as a page a person can read in a browser
 * (Accept: text/html), as JSON to an API client, and the advice names APP_ORIGIN, which makes the console's
 * sign-in and OAuth redirect come back to the address people open (ALLOWED_HOSTS alone sent them to
 * localhost). tests/e2e/hosted-ops.spec.ts sends the same over real HTTP to the pages and the API.
 */
const ORIGIN = "http://localhost:3500";
const saved = { ...process.env };
beforeAll(() => {
  delete process.env.HOST;
  delete process.env.ALLOWED_HOSTS;
  Object.assign(process.env, { APP_ORIGIN: ORIGIN, PORT: "3500", SESSION_PASSWORD: "p".repeat(32), LOG_LEVEL: "silent" });
});
afterAll(() => {
  process.env = saved;
});

const session = handleRoute(() => Response.json({ secret: "session data" }));
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("a Host refusal", () => {
  it("is a page for a browser, naming APP_ORIGIN with the address the person used", async () => {
    const response = await session(new Request(`${ORIGIN}/api/session`, { headers: { host: "192.0.2.2:3500", accept: BROWSER_ACCEPT } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("This console does not answer at this address");
    expect(page).toContain("APP_ORIGIN=http://192.0.2.2:3500");
    expect(page).toContain("forbidden_host");
    expect(page).not.toContain("session data");
  });

  it("is the console's JSON error to an API client, with the same advice", async () => {
    const response = await session(new Request(`${ORIGIN}/api/session`, { headers: { host: "192.0.2.2:3500", accept: "application/json" } }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = (await response.json()) as { ok: boolean; error: string; message: string };
    expect(body).toMatchObject({ ok: false, error: "forbidden_host" });
    expect(body.message).toContain("APP_ORIGIN=http://192.0.2.2:3500");
    expect(body.message).toMatch(/ALLOWED_HOSTS only adds another name/);
    // fetch's default Accept is */*: JSON too.
    const plain = await session(new Request(`${ORIGIN}/api/session`, { headers: { host: "192.0.2.2:3500" } }));
    expect(plain.headers.get("content-type")).toBe("application/json");
  });

  it("lets the console's own names through", async () => {
    const response = await session(new Request(`${ORIGIN}/api/session`, { headers: { host: "localhost:3500", accept: BROWSER_ACCEPT } }));
    expect(response.status).toBe(200);
  });
});

describe("the refusal page", () => {
  it("says back what the client sent only escaped", () => {
    const page = refusalPage({ status: 403, code: "forbidden_host", message: `No <script>alert("x")</script> & 'y'` });
    expect(page).not.toContain("<script>");
    expect(page).toContain("No &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;");
  });

  it("is asked for by a browser's navigation, not by fetch or a client that takes anything", () => {
    expect(wantsPage(BROWSER_ACCEPT)).toBe(true);
    expect(wantsPage("text/html")).toBe(true);
    expect(wantsPage("*/*")).toBe(false);
    expect(wantsPage("application/json")).toBe(false);
    expect(wantsPage("text/htmlx")).toBe(false);
    expect(wantsPage(null)).toBe(false);
  });
});
