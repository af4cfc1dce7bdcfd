import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAppCredentials, startEmulatorServer, type EmulatorServer } from "@/lib/emulator";
import { callMethod, maskToken, platformErrorCode, refreshAccessToken } from "@/lib/platform";
import { encodeCursorParam, readNextCursor } from "@/lib/platform/cursor";
import { isLoopbackUrl } from "@/lib/platform/call-method";
import { reshapeTokenGrant } from "@/lib/platform/oauth";

describe("maskToken", () => {
  it("keeps the kind prefix and the last four characters", () => {
    // Made-up tokens, assembled so that nothing token-shaped sits in the repository.
    const body = ["MTIzNDU2Nzg5MC1h", "YmNkZWZnaGlqa2xtbm9w"].join("");
    expect(maskToken(`xoxe.xoxb-1-${body}-a1b2`)).toBe("xoxe.xoxb-…a1b2");
    expect(maskToken(`xoxb-123456789012-${["abcdef", "ghijkl"].join("")}`)).toBe("xoxb-…ijkl");
    expect(maskToken(`xoxe-1-${["My0xLTEyMzQ1Njc4", "OTAtYWJjZGVmZ2hpamts"].join("")}`)).toBe("xoxe-…amts");
    expect(maskToken("short")).toBe("…");
    expect(maskToken("")).toBe("");
  });

  it("never leaves enough of a token to look like one", () => {
    expect(maskToken(`xoxe.xoxp-1-${["MTIzNDU2Nzg5MC1h", "YmNkZWZnaGlqa2xtbm9w"].join("")}-zzzz`)).not.toMatch(/xox[abpe][.-][A-Za-z0-9-]{10,}/);
  });
});

describe("cursor helpers", () => {
  it("encodes = as %3D", () => {
    expect(encodeCursorParam("dXNlcjpVMDYxTkZUVDI=")).toBe("cursor=dXNlcjpVMDYxTkZUVDI%3D");
  });

  it("reads next_cursor, and null for empty, null or absent (spec 4.7)", () => {
    expect(readNextCursor({ ok: true, response_metadata: { next_cursor: "abc=" } })).toBe("abc=");
    expect(readNextCursor({ ok: true, response_metadata: { next_cursor: "" } })).toBeNull();
    expect(readNextCursor({ ok: true, response_metadata: { next_cursor: null } })).toBeNull();
    expect(readNextCursor({ ok: true, response_metadata: {} })).toBeNull();
    expect(readNextCursor({ ok: true })).toBeNull();
    expect(readNextCursor(undefined)).toBeNull();
  });
});

describe("reshapeTokenGrant", () => {
  it("reads the bot token at top level and the user token in authed_user (spec 2.1, 2.2)", () => {
    const grant = reshapeTokenGrant({
      ok: true,
      access_token: "xoxe.xoxb-1-aaaa",
      expires_in: 43200,
      refresh_token: "xoxe-1-bbbb",
      token_type: "bot",
      scope: "chat:write,users:read",
      bot_user_id: "U1",
      app_id: "A1",
      team: { name: "T", id: "T1" },
      enterprise: null,
      authed_user: { id: "U2", scope: "users:read", access_token: "xoxe.xoxp-1-cccc", expires_in: 43200, refresh_token: "xoxe-1-dddd", token_type: "user" },
    });
    expect(grant.bot).toEqual({ accessToken: "xoxe.xoxb-1-aaaa", refreshToken: "xoxe-1-bbbb", expiresInS: 43200, scopes: ["chat:write", "users:read"] });
    expect(grant.user?.accessToken).toBe("xoxe.xoxp-1-cccc");
    expect(grant.team).toEqual({ name: "T", id: "T1" });
    expect(grant.authedUserId).toBe("U2");
  });

  it("reads a refreshed user token from the top level when token_type is user", () => {
    const grant = reshapeTokenGrant({ ok: true, access_token: "xoxe.xoxp-1-x", refresh_token: "xoxe-1-y", expires_in: 43200, token_type: "user" });
    expect(grant.user?.accessToken).toBe("xoxe.xoxp-1-x");
    expect(grant.bot).toBeUndefined();
  });
});

describe("callMethod against the emulator", () => {
  let upstream: EmulatorServer;
  let stalled: Server;
  let limited: Server;
  const address = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

  beforeAll(async () => {
    upstream = await startEmulatorServer({ users: 20, seed: "platform-tests" });
    stalled = createServer(() => {});
    limited = createServer((_req, res) =>
      res.writeHead(429, { "retry-after": "7", "content-type": "application/json" }).end('{"ok":false,"error":"ratelimited"}'),
    );
    await Promise.all([stalled, limited].map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
  });
  afterAll(async () => {
    stalled.closeAllConnections();
    await Promise.all([upstream.close(), new Promise((r) => stalled.close(r)), new Promise((r) => limited.close(r))]);
  });

  it("posts form-encoded with a Bearer token and returns the platform's answer as it came", async () => {
    const result = await callMethod({ baseUrl: upstream.url, token: ["xoxb", "not", "a", "real", "token", "0000"].join("-"), method: "auth.test" });
    expect(result.status).toBe(200);
    expect(result.ok).toBe(false);
    expect(result.body).toMatchObject({ ok: false, error: "invalid_auth" });
    expect(JSON.parse(result.rawText)).toEqual(result.body);
    expect(result.wire).toEqual({
      method: "POST",
      url: `${upstream.url}/api/auth.test`,
      headers: { authorization: "Bearer xoxb-…0000", "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
  });

  it("masks the secrets of OAuth calls in the wire record", async () => {
    const app = defaultAppCredentials("platform-tests", "rotation");
    const error = await refreshAccessToken({
      baseUrl: upstream.url,
      credentials: app,
      refreshToken: ["xoxe", "1", "unknown", "refresh", "token", "abcd"].join("-"),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_refresh_token", status: 409 });
    const wire = (error as { result: { wire: { body: string } } }).result.wire;
    expect(wire.body).toContain("refresh_token=xoxe-%E2%80%A6abcd");
    expect(wire.body).not.toContain(app.clientSecret);
    expect(wire.body).not.toContain("unknown-refresh-token");
  });

  it("times out with a 504 AppError", async () => {
    const error = await callMethod({ baseUrl: address(stalled), token: "t", method: "auth.test", timeoutMs: 150 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "upstream_timeout", status: 504 });
  });

  it("reports Retry-After of a 429", async () => {
    const result = await callMethod({ baseUrl: address(limited), token: "t", method: "users.list", httpMethod: "GET" });
    expect(result).toMatchObject({ ok: false, status: 429, retryAfterS: 7 });
  });

  it("answers 502 when the platform cannot be reached", async () => {
    const error = await callMethod({ baseUrl: "http://127.0.0.1:9", token: "t", method: "auth.test" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "upstream_unreachable", status: 502 });
  });

  it("refuses a method name outside [A-Za-z0-9.]", async () => {
    await expect(callMethod({ baseUrl: upstream.url, method: "../admin/reset" })).rejects.toMatchObject({ status: 400 });
  });
});

describe("compression", () => {
  it("asks a loopback upstream for an uncompressed answer", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers["accept-encoding"]);
      res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const result = await callMethod({ baseUrl: `http://127.0.0.1:${port}`, method: "api.test" });
      expect(result.ok).toBe(true);
      expect(seen).toEqual(["identity"]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it("treats only this machine's addresses as loopback", () => {
    for (const url of ["http://localhost:3000/emulator", "http://127.0.0.1:9/", "http://127.8.9.10/", "http://[::1]:3000/"]) {
      expect(isLoopbackUrl(url)).toBe(true);
    }
    for (const url of ["https://slack.com", "https://localhost.example.com", "http://10.0.0.1/", "http://128.0.0.1/", "not a url"]) {
      expect(isLoopbackUrl(url)).toBe(false);
    }
  });
});

describe("the platform's answer as it came", () => {
  const answers: string[] = [];
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json", "x-slack-req-id": "req-1" }).end(answers.shift() ?? ""));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const answer = async (text: string) => {
    answers.push(text);
    return callMethod({ baseUrl, token: "t", method: "users.list" });
  };

  it("keeps the bytes and the headers, and still gives the JSON and the text when asked", async () => {
    const text = '{"ok":true,"members":[{"name":"Zoë"}],"response_metadata":{"next_cursor":""}}';
    const result = await answer(text);
    expect(result.ok).toBe(true);
    expect(Buffer.from(result.bytes).toString("utf8")).toBe(text);
    expect(result.headers.get("x-slack-req-id")).toBe("req-1");
    expect(result.rawText).toBe(text);
    expect(result.body).toEqual(JSON.parse(text));
  });

  it("knows ok and the error code however the platform wrote its JSON", async () => {
    for (const text of ['{"ok":true}', ' \n{ "ok" : true , "x": 1 }', '{"x":1,"ok":true}']) {
      expect((await answer(text)).ok).toBe(true);
    }
    const failed = await answer('{"ok":false,"error":"token_expired"}');
    expect(failed.ok).toBe(false);
    expect(platformErrorCode(failed)).toBe("token_expired");
    const notJson = await answer('{"ok":truly not JSON');
    expect(notJson.ok).toBe(false);
    expect(notJson.body).toBeUndefined();
  });
});
