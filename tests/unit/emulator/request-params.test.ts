import { describe, expect, it } from "vitest";
import { readClientCredentials, readParams, readToken } from "@/lib/emulator/web-api/request-params";
import { maskToken } from "@/lib/emulator/tokens/tokens";
import { Router } from "@/lib/emulator/core/router";

const URL_BASE = "http://localhost/api/users.list";
const FORM = { acceptsJson: false };

describe("reading a Web API request", () => {
  it("merges the query string with a form body, the body winning", async () => {
    const request = new Request(`${URL_BASE}?limit=5&cursor=abc`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "limit=7&include_locale=true",
    });
    expect(await readParams(request, FORM)).toEqual({ limit: "7", cursor: "abc", include_locale: "true" });
  });

  it("keeps a cursor's = signs, sent as %3D (spec 4.4)", async () => {
    const request = new Request(`${URL_BASE}?cursor=dXNlcjpVMDYxTkZUVDI%3D`);
    expect((await readParams(request, FORM)).cursor).toBe("dXNlcjpVMDYxTkZUVDI=");
  });

  it("stringifies JSON values", async () => {
    const request = new Request(URL_BASE, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ limit: 3, include_locale: true, blocks: [{ type: "divider" }] }),
    });
    expect(await readParams(request, { acceptsJson: true })).toEqual({ limit: "3", include_locale: "true", blocks: '[{"type":"divider"}]' });
  });

  it("reads multipart form data", async () => {
    const form = new FormData();
    form.set("channel", "C1");
    expect(await readParams(new Request(URL_BASE, { method: "POST", body: form }), FORM)).toEqual({ channel: "C1" });
  });

  it("prefers the Bearer header to the token parameter", () => {
    const request = new Request(URL_BASE, { headers: { authorization: "Bearer xoxb-header" } });
    expect(readToken(request, { token: "xoxb-param" })).toBe("xoxb-header");
    expect(readToken(new Request(URL_BASE), { token: "xoxb-param" })).toBe("xoxb-param");
    expect(readToken(new Request(URL_BASE), {})).toBeUndefined();
  });

  it("reads client credentials from HTTP Basic (form-encoded, RFC 6749) before the form", () => {
    const basic = Buffer.from("123.456:s%3Acret+x").toString("base64");
    const request = new Request(URL_BASE, { headers: { authorization: `Basic ${basic}` } });
    expect(readClientCredentials(request, { client_id: "other", client_secret: "other" })).toEqual({ clientId: "123.456", clientSecret: "s:cret x" });
    expect(readClientCredentials(new Request(URL_BASE), { client_id: "a", client_secret: "b" })).toEqual({ clientId: "a", clientSecret: "b" });
  });
});

describe("maskToken", () => {
  it("keeps the prefix and the last four characters only", () => {
    // Made-up tokens, assembled so that nothing token-shaped sits in the repository.
    const tail = ["abcdefgh", "ijklmnop"].join("");
    expect(maskToken(`xoxe.xoxb-1-${tail}`)).toBe("xoxe.xoxb-…mnop");
    expect(maskToken(`xoxe-1-${tail}`)).toBe("xoxe-…mnop");
    expect(maskToken("xoxp-111-222-333-abcdef")).toBe("xoxp-…cdef");
  });
});

describe("Router", () => {
  const router = new Router()
    .get("/admin/state", () => new Response("state"))
    .post("/services/*", (_ctx, params) => new Response(params["*"]))
    .on(["GET", "POST"], "/api/:method", (_ctx, params) => new Response(params.method));

  it("matches named segments and the rest of a path", () => {
    expect(router.match("POST", "/api/users.list")).toMatchObject({ params: { method: "users.list" } });
    expect(router.match("POST", "/services/T1/B2/secret")).toMatchObject({ params: { "*": "T1/B2/secret" } });
  });

  it("tells a wrong HTTP method from an unknown path", () => {
    expect(router.match("POST", "/admin/state")).toEqual({ allowed: ["GET", "HEAD"] });
    expect(router.match("GET", "/admin/nothing")).toBeNull();
    expect(router.match("GET", "/api/a/b")).toBeNull();
  });
});
