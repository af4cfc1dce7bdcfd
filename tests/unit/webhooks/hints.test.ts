import { describe, expect, it } from "vitest";
import { hintForWebhookAnswer } from "@/lib/webhooks/hints";

describe("hintForWebhookAnswer", () => {
  it("has no hint for ok", () => {
    expect(hintForWebhookAnswer(200, "ok")).toBeNull();
  });

  it.each([
    [400, "invalid_payload", /JSON/],
    [400, "no_text", /"text"/],
    [403, "invalid_token", /Reinstall|paste/],
    [403, "action_prohibited", /admin/],
    [404, "channel_not_found", /channel/],
    [404, "no_service", /Reinstall/],
    [410, "channel_is_archived", /archived/],
    [500, "rollup_error", /Try again/],
    [429, "rate_limited", /Retry-After/],
  ])("says what to do about HTTP %i %s", (status, body, hint) => {
    expect(hintForWebhookAnswer(status, body)).toMatch(hint);
  });

  it("still says something for an unknown error", () => {
    expect(hintForWebhookAnswer(418, "teapot")).toMatch(/refused/);
    expect(hintForWebhookAnswer(503, "")).toMatch(/Try again/);
  });
});
