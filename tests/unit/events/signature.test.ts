import { describe, expect, it } from "vitest";
import { signRequest, verifyRequestSignature } from "@/lib/events/signature";

const SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const NOW_MS = 1_700_000_000_000;
const TS = String(NOW_MS / 1000);
const BODY = JSON.stringify({ type: "event_callback", event: { type: "app_mention", text: "<@U1> hi" } });

describe("verifyRequestSignature (v0)", () => {
  it("matches the platform's documented example signature", () => {
    // From the platform's "Verifying requests" guide: secret, timestamp and body, and the signature it gives.
    const body =
      "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    expect(signRequest(SECRET, "1531420618", body)).toBe("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503");
  });

  it("accepts a valid signature", () => {
    const signature = signRequest(SECRET, TS, BODY);
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: BODY }, SECRET, NOW_MS)).toEqual({ ok: true, signedWith: SECRET });
  });

  it("accepts a request signed up to 5 minutes ago", () => {
    const ts = String(NOW_MS / 1000 - 299);
    expect(verifyRequestSignature({ timestamp: ts, signature: signRequest(SECRET, ts, BODY), rawBody: BODY }, SECRET, NOW_MS).ok).toBe(true);
  });

  it("refuses a signature made with another secret", () => {
    const signature = signRequest("another-secret", TS, BODY);
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: BODY }, SECRET, NOW_MS)).toMatchObject({ ok: false, reason: /does not match/ });
  });

  it("refuses a stale timestamp, even correctly signed", () => {
    const stale = String(NOW_MS / 1000 - 301);
    const check = verifyRequestSignature({ timestamp: stale, signature: signRequest(SECRET, stale, BODY), rawBody: BODY }, SECRET, NOW_MS);
    expect(check).toMatchObject({ ok: false, reason: /5 minutes/ });
  });

  it("refuses a timestamp far in the future", () => {
    const future = String(NOW_MS / 1000 + 3600);
    expect(verifyRequestSignature({ timestamp: future, signature: signRequest(SECRET, future, BODY), rawBody: BODY }, SECRET, NOW_MS).ok).toBe(false);
  });

  it("refuses a tampered body", () => {
    const signature = signRequest(SECRET, TS, BODY);
    const tampered = BODY.replace("hi", "ho");
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: tampered }, SECRET, NOW_MS)).toMatchObject({ ok: false, reason: /does not match/ });
  });

  it("refuses a signature moved to another timestamp", () => {
    const signature = signRequest(SECRET, TS, BODY);
    const other = String(NOW_MS / 1000 - 1);
    expect(verifyRequestSignature({ timestamp: other, signature, rawBody: BODY }, SECRET, NOW_MS).ok).toBe(false);
  });

  it.each([
    ["missing", null],
    ["empty", ""],
    ["without the v0= prefix", signRequest(SECRET, TS, BODY).slice(3)],
    ["with another version", signRequest(SECRET, TS, BODY).replace("v0=", "v1=")],
    ["too short", signRequest(SECRET, TS, BODY).slice(0, 40)],
    ["in uppercase hex", `v0=${signRequest(SECRET, TS, BODY).slice(3).toUpperCase()}`],
    ["with trailing garbage", `${signRequest(SECRET, TS, BODY)}00`],
  ])("refuses a malformed signature header (%s)", (_what, signature) => {
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: BODY }, SECRET, NOW_MS)).toMatchObject({ ok: false, reason: /X-Slack-Signature/ });
  });

  it.each([
    ["missing", null],
    ["not a number", "yesterday"],
    ["negative", "-1"],
    ["fractional", `${TS}.5`],
  ])("refuses a malformed timestamp header (%s)", (_what, timestamp) => {
    expect(verifyRequestSignature({ timestamp, signature: signRequest(SECRET, TS, BODY), rawBody: BODY }, SECRET, NOW_MS)).toMatchObject({
      ok: false,
      reason: /X-Slack-Request-Timestamp/,
    });
  });

  it("accepts a signature made with any of the given secrets, saying which, and refuses one made with none of them", () => {
    const other = "another-apps-signing-secret";
    const signature = signRequest(other, TS, BODY);
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: BODY }, [SECRET, other], NOW_MS)).toEqual({ ok: true, signedWith: other });
    expect(verifyRequestSignature({ timestamp: TS, signature, rawBody: BODY }, [SECRET], NOW_MS).ok).toBe(false);
    expect(verifyRequestSignature({ timestamp: TS, signature: signRequest("", TS, BODY), rawBody: BODY }, ["", SECRET], NOW_MS).ok).toBe(false);
  });

  it("refuses everything when no signing secret is configured", () => {
    expect(verifyRequestSignature({ timestamp: TS, signature: signRequest("", TS, BODY), rawBody: BODY }, "", NOW_MS).ok).toBe(false);
  });
});
