import { describe, expect, it } from "vitest";
import type { WireRecord } from "@/lib/platform/wire-header";
import { buildCurl, shellQuote, type RequestCode } from "@/lib/explorer/curl";

/** The command, failing the test when there is none. */
function command(wire: WireRecord): string {
  const curl: RequestCode = buildCurl(wire);
  if (!curl.complete) throw new Error(`no command: ${curl.reason}`);
  return curl.code;
}

describe("Copy as curl", () => {
  const wire: WireRecord = {
    method: "POST",
    url: "http://localhost:3000/emulator/api/users.list",
    headers: {
      Authorization: "Bearer xoxe.xoxb-…a1b2",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D",
  };

  it("writes the token as $TOKEN and keeps the wire-encoded cursor", () => {
    const curl = command(wire);
    expect(curl).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(curl).toContain(`--data 'limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D'`);
    expect(curl).toContain(`curl -sS -X POST 'http://localhost:3000/emulator/api/users.list'`);
    expect(curl).not.toContain("xox");
  });

  it("turns credentials in a form body or query string into variables", () => {
    const curl = command({
      method: "POST",
      url: "https://slack.com/api/oauth.v2.access?token=xoxb-…zz",
      headers: {},
      body: "client_id=1.2&client_secret=…abcd&refresh_token=xoxe-…9999",
    });
    expect(curl).toContain(`"token=$TOKEN"`);
    expect(curl).toContain(`--data-urlencode "client_secret=$CLIENT_SECRET"`);
    expect(curl).toContain(`--data-urlencode "refresh_token=$REFRESH_TOKEN"`);
    expect(curl).not.toMatch(/xox|abcd|9999/);
  });

  it("keeps parameters named like Object's own properties (constructor, toString…) with their values", () => {
    const names = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__"];
    const query = names.map((n) => `${n}=q-${n}`).join("&");
    const get = command({ method: "GET", url: `https://slack.com/api/users.list?${query}`, headers: {} });
    expect(get).toContain(`'https://slack.com/api/users.list?${query}'`);
    expect(get).not.toContain("$undefined");
    const post = command({ method: "POST", url: "https://slack.com/api/users.list", headers: {}, body: names.map((n) => `${n}=f-${n}`).join("&") });
    expect(post).toContain(`--data '${names.map((n) => `${n}=f-${n}`).join("&")}'`);
    expect(post).not.toContain("--data-urlencode");
  });

  it("reads a parameter name with a malformed escape without throwing, and keeps it as sent", () => {
    const curl = command({ method: "POST", url: "https://slack.com/api/chat.postMessage", headers: {}, body: "text%E3%8=1&channel=C1" });
    expect(curl).toContain(`--data 'text%E3%8=1&channel=C1'`);
  });

  it("writes no command for a request known only in part, and says why", () => {
    const curl = buildCurl({ ...wire, body: "limit=50&text=%E3%81%82", cut: { body: 9000 } });
    expect(curl.complete).toBe(false);
    expect(curl).not.toHaveProperty("code");
    expect(!curl.complete && curl.reason).toMatch(/Only part of this request is known \(its body \(9,000 characters\)/);
  });

  it("quotes values for the shell", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
