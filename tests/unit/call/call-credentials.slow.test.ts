import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet, POST as callPost } from "@/app/api/call/[method]/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

let testConsole: TestConsole;
beforeAll(async () => {
  testConsole = await startTestConsole();
});
afterAll(() => testConsole.close());

const CREDENTIALS = { token: "xoxb-someone-elses", client_secret: "not-for-the-platform", refresh_token: "xoxe-1-stolen" };

/** What went upstream, as the proxy reports it (x-upstream-request): every parameter name in its URL and body. */
function sentKeys(response: Response): string[] {
  const wire = JSON.parse(response.headers.get("x-upstream-request") ?? "{}") as { url: string; headers: Record<string, string>; body?: string };
  const bodyKeys = wire.headers["content-type"]?.startsWith("application/json")
    ? Object.keys(JSON.parse(wire.body ?? "{}") as object)
    : [...new URLSearchParams(wire.body ?? "").keys()];
  return [...new URL(wire.url).searchParams.keys(), ...bodyKeys];
}

describe("/api/call relays no credential from the request", () => {
  it("drops token, client_secret and refresh_token from a form body, a JSON body and the query", async () => {
    const browser = new TestBrowser(testConsole.origin);
    expect((await installIn(browser)).status).toBe(303);
    const id = ((await (await browser.send(sessionRoute, "/api/session")).json()) as { installations: { id: string }[] }).installations[0]!.id;
    const path = `/api/call/users.list?installation=${id}&token=bot`;
    const answers = [
      await browser.send(callPost, path, {
        method: "POST",
        params: { method: "users.list" },
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...CREDENTIALS, limit: "2" }).toString(),
      }),
      await browser.send(
        callGet,
        `${path}&limit=2&${new URLSearchParams({ client_secret: CREDENTIALS.client_secret, refresh_token: CREDENTIALS.refresh_token })}`,
        { params: { method: "users.list" } },
      ),
    ];
    for (const response of answers) {
      expect(response.status).toBe(200);
      expect(((await response.json()) as { ok: boolean; members: unknown[] }).members).toHaveLength(2);
      const keys = sentKeys(response);
      expect(keys).toContain("limit");
      for (const key of Object.keys(CREDENTIALS)) expect(keys).not.toContain(key);
    }
    // A JSON body goes on as JSON (to a method that reads one), its credentials dropped all the same.
    const json = await browser.send(callPost, path.replace("users.list", "chat.postMessage"), {
      method: "POST",
      params: { method: "chat.postMessage" },
      json: { ...CREDENTIALS, channel: "general", text: "no borrowed token" },
    });
    expect(((await json.json()) as { ok: boolean }).ok).toBe(true);
    expect(sentKeys(json).sort()).toEqual(["channel", "text"]);
  });
});
