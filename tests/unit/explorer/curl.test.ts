import { describe, expect, it } from "vitest";
import { buildCurl, shellQuote } from "@/lib/explorer/curl";

describe("Copy as curl", () => {
  const wire = {
    method: "POST",
    url: "http://localhost:3000/emulator/api/users.list",
    headers: {
      Authorization: "Bearer xoxe.xoxb-…a1b2",
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D",
  };

  it("writes the token as $TOKEN and keeps the wire-encoded cursor", () => {
    const curl = buildCurl(wire);
    expect(curl).toContain(`-H "Authorization: Bearer $TOKEN"`);
    expect(curl).toContain(`--data 'limit=50&cursor=dXNlcjpVMDYxTkZUVDI%3D'`);
    expect(curl).toContain(`curl -sS -X POST 'http://localhost:3000/emulator/api/users.list'`);
    expect(curl).not.toContain("xox");
  });

  it("turns credentials in a form body or query string into variables", () => {
    const curl = buildCurl({
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

  it("quotes values for the shell", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
