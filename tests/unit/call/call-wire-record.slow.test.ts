import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import type { WireRecord } from "@/lib/platform/wire-header";
import { buildCurl } from "@/lib/explorer/curl";
import { buildCall, EMPTY_REQUEST, type CallRequest, type ExplorerRequest } from "@/lib/explorer/params";
import { sentUpstreamRequest } from "@/lib/explorer/sent-request";
import { MAX_WIRE_HEADER_BYTES } from "@/lib/platform/wire-header";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * x-upstream-request, the console's record of what it sent upstream: small enough for any proxy's header
 * buffer, and never what the explorer builds commands from (it rebuilds the request it sent, which the
 * record must agree with whenever the record is whole).
 */

let testConsole: TestConsole;
let browser: TestBrowser;
let installation: string;

beforeAll(async () => {
  testConsole = await startTestConsole();
  browser = new TestBrowser(testConsole.origin);
  expect((await installIn(browser, "")).status).toBe(303);
  const session = await browser.send(sessionRoute, "/api/session");
  installation = ((await session.json()) as { installations: Array<{ id: string }> }).installations[0]?.id ?? "";
  expect(installation).not.toBe("");
});
afterAll(() => testConsole.close());

/** Sends a call as the explorer does (lib/swr/use-api-call.ts): the answer and its record, parsed. */
async function send(call: CallRequest) {
  const route = call.httpMethod === "POST" ? callPost : callGet;
  const response = await browser.send(route, `/api/call/${encodeURIComponent(call.method)}?${call.query}`, {
    method: call.httpMethod,
    ...(call.httpMethod === "POST" ? { body: call.body ?? "", headers: call.contentType ? { "content-type": call.contentType } : {} } : {}),
    params: { method: call.method },
  });
  const header = response.headers.get("x-upstream-request") ?? "";
  return { body: (await response.json()) as { ok: boolean; error?: string; message?: { text?: string } }, header, record: JSON.parse(header) as WireRecord };
}

const request = (patch: Partial<ExplorerRequest>): ExplorerRequest => ({ ...EMPTY_REQUEST, limit: "", installation, ...patch });
const CJK = "漢字かな交じり文の試験です。".repeat(50).slice(0, 700);

describe("The record of an upstream request (x-upstream-request)", () => {
  it("stays under 2 KB, encoded, for a JSON post of 700 CJK characters, and says what it cut", async () => {
    const call = buildCall(
      request({
        method: "chat.postMessage",
        httpMethod: "POST",
        encoding: "json",
        extra: [
          { key: "channel", value: "general" },
          { key: "text", value: CJK },
        ],
      }),
    );
    const { body, header, record } = await send(call);
    expect(body.ok).toBe(true);
    expect(Buffer.byteLength(header, "latin1")).toBeLessThanOrEqual(MAX_WIRE_HEADER_BYTES);
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    const whole = JSON.stringify({ channel: "general", text: CJK });
    expect(record.cut).toEqual({ body: whole.length });
    expect(whole.startsWith(record.body ?? "-")).toBe(true);
    expect(record.body!.length).toBeGreaterThan(100);
  });

  it("cuts the URL too, at a whole %XX, when a GET's query is what is long", async () => {
    const call = buildCall(request({ method: "users.list", extra: [{ key: "team_id", value: CJK }] }));
    const { body, header, record } = await send(call);
    expect(body.ok).toBe(true);
    expect(header.length).toBeLessThanOrEqual(MAX_WIRE_HEADER_BYTES);
    const whole = `${testConsole.origin}/emulator/api/users.list?team_id=${new URLSearchParams({ team_id: CJK }).toString().slice("team_id=".length)}`;
    expect(record.cut).toEqual({ url: whole.length });
    expect(whole.startsWith(record.url)).toBe(true);
    expect(record.url).not.toMatch(/%[0-9A-F]?$/);
    expect(() => decodeURIComponent(record.url)).not.toThrow();
  });

  it("agrees with the request the explorer rebuilds from what it sent, whenever it is whole", async () => {
    const calls = [
      buildCall(request({ method: "users.list", limit: "3", cursor: "dXNlcjpVMDYxTkZUVDI=" })),
      buildCall(
        request({
          method: "users.list",
          httpMethod: "POST",
          limit: "2",
          extra: [
            { key: "constructor", value: "c" },
            { key: "toString", value: "t" },
          ],
        }),
      ),
      buildCall(request({ method: "auth.test", httpMethod: "POST", encoding: "json", extra: [{ key: "note", value: "ça va · 漢字" }] })),
      buildCall(request({ method: "auth.test", httpMethod: "POST" })),
      // A JSON body sent by hand, with parameters in the query too and a credential the console drops.
      {
        method: "auth.test",
        httpMethod: "POST" as const,
        query: `installation=${installation}&token=bot&limit=1&client_secret=s`,
        body: '{"__proto__":"kept","valueOf":1,"nested":{"__proto__":{"a":1}},"token":"xoxb-no"}',
        contentType: "application/json",
      },
    ];
    for (const call of calls) {
      const { record } = await send(call);
      expect(record.cut).toBeUndefined();
      expect(sentUpstreamRequest(call, record)).toEqual(record);
    }
  });

  it("leaves Copy as curl whole: the command for a cut record is built from the request sent, CJK text and all", async () => {
    const call = buildCall(
      request({
        method: "chat.postMessage",
        httpMethod: "POST",
        encoding: "json",
        extra: [
          { key: "channel", value: "general" },
          { key: "text", value: CJK },
        ],
      }),
    );
    const { record } = await send(call);
    expect(record.cut).toBeDefined();
    expect(buildCurl(record).complete).toBe(false);
    const rebuilt = sentUpstreamRequest(call, record)!;
    expect(rebuilt.body).toBe(JSON.stringify({ channel: "general", text: CJK }));
    const curl = buildCurl(rebuilt);
    expect(curl.complete && curl.code).toContain(`--data '{"channel":"general","text":"${CJK}"}'`);
  });
});
