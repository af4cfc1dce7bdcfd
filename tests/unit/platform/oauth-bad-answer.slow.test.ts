import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/http/app-error";
import { toErrorResponse } from "@/lib/http/error-response";
import { refreshAccessToken } from "@/lib/platform";

/** An upstream that answers every token call with ok:true and a body that is not a token answer. */
let upstream: Server;
let baseUrl: string;
beforeAll(async () => {
  upstream = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, access_token: 12345, expires_in: "soon", team: { name: "no id" } }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

describe("a token answer of an unexpected shape", () => {
  it("is the platform's fault: upstream_bad_answer with 502, not a 422 about the request", async () => {
    const error = await refreshAccessToken({
      baseUrl,
      credentials: { clientId: "1.2", clientSecret: "s" },
      refreshToken: ["xoxe", "1", "made", "up"].join("-"),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "upstream_bad_answer", status: 502 });
    const response = toErrorResponse(error);
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toBe("upstream_bad_answer");
  });
});
