import { describe, expect, it } from "vitest";
import { METHODS } from "@/lib/emulator/web-api/methods";
import { createHarness } from "./support/emulator-harness";

describe("a parameterless call with an empty JSON body", () => {
  // What the platform's official Python client sends for auth.test and every other call without parameters.
  for (const body of ["", "  \n"]) {
    it(`is no parameters for every method, never invalid_json (body ${JSON.stringify(body)})`, async () => {
      const h = createHarness();
      const { rotation } = await h.apps();
      const answers = new Map<string, { ok: boolean; error?: string }>();
      for (const name of METHODS.keys()) {
        // A fresh token each time: auth.revoke and apps.uninstall are among the methods.
        const grant = await h.install(rotation);
        const response = await h.emulator.fetch(
          new Request(`${h.base}/api/${name}`, {
            method: "POST",
            headers: { "content-type": "application/json;charset=utf-8", authorization: `Bearer ${grant.access_token}` },
            body,
          }),
        );
        answers.set(name, (await response.json()) as { ok: boolean; error?: string });
      }
      for (const [name, answer] of answers) expect({ name, error: answer.error }).not.toEqual({ name, error: "invalid_json" });
      expect(answers.get("auth.test")).toMatchObject({ ok: true });
      expect(answers.get("users.list")).toMatchObject({ ok: true });
    });
  }

  it("a body that is not JSON is still invalid_json", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const grant = await h.install(rotation);
    const response = await h.emulator.fetch(
      new Request(`${h.base}/api/auth.test`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${grant.access_token}` },
        body: "{nope",
      }),
    );
    expect(await response.json()).toEqual({ ok: false, error: "invalid_json" });
  });
});

describe("scope headers", () => {
  it("are on error answers too: missing_scope, token_expired, and an unknown token's accepted scopes", async () => {
    const h = createHarness();
    const { rotation } = await h.apps();
    const grant = await h.install(rotation, { scope: ["users:read"] });

    const missing = await h.call("chat.postMessage", { channel: "general", text: "hi" }, { token: grant.access_token });
    expect(missing.body).toMatchObject({ ok: false, error: "missing_scope", needed: "chat:write" });
    expect(missing.headers.get("x-oauth-scopes")).toBe("users:read");
    expect(missing.headers.get("x-accepted-oauth-scopes")).toBe("chat:write");

    h.clock.advance(13 * 3600_000);
    const expired = await h.call("users.list", {}, { token: grant.access_token });
    expect(expired.body).toMatchObject({ ok: false, error: "token_expired" });
    expect(expired.headers.get("x-oauth-scopes")).toBe("users:read");
    expect(expired.headers.get("x-accepted-oauth-scopes")).toBe("users:read");

    const unknown = await h.call("users.list", {}, { token: "xoxb-not-a-token" });
    expect(unknown.body).toMatchObject({ ok: false, error: "invalid_auth" });
    expect(unknown.headers.get("x-oauth-scopes")).toBeNull();
    expect(unknown.headers.get("x-accepted-oauth-scopes")).toBe("users:read");
  });
});
