/**
 * The ID token checks of "Sign in with" (OpenID Connect Core §3.1.3.7, done by openid-client): each test
 * starts a real sign-in against the emulator, and the platform's answer to the code exchange is replaced
 * on its way to the console by a hostile one (a forged, tampered, or foreign token), as a party between
 * the two, or the platform issuing a token for another client, would send. Everything else (discovery, the
 * keys, the exchange itself) is the emulator's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultAppCredentials } from "@/lib/emulator";
import { signJwt } from "@/lib/emulator/openid/keys";
import { issuerTransport, type IssuerTransport } from "@/lib/signin/oidc-client";
import { redeemSignInCode } from "@/lib/signin/redeem-code";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { advanceEmulatorClock, pickMemberAt, SIGN_IN_REDIRECT_URI, startSignIn } from "./support";

let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
});
afterAll(() => testConsole.close());

type Claims = Record<string, unknown>;
const base64url = (value: string) => Buffer.from(value).toString("base64url");
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Claims;
/** Signed with the emulator's own key: a token the platform itself issued with these claims. */
const signedByIssuer = (claims: Claims) => signJwt(testConsole.emulator.emulator.state, claims);

/** openid-client's fetch, with the code exchange's ID token replaced by `forge(the real one)`. */
function replacingIdToken(forge: (real: string) => string | Promise<string>): IssuerTransport {
  return async (url, options) => {
    const response = await issuerTransport(url, options);
    if (options.method !== "POST" || response.status !== 200) return response;
    const body = (await response.json()) as { id_token: string };
    return Response.json({ ...body, id_token: await forge(body.id_token) }, { headers: { date: response.headers.get("date")! } });
  };
}

/** A sign-in started in a browser and completed on the emulator's page, redeemed through `transport`. */
async function signInThrough(transport: IssuerTransport = issuerTransport, options: { userId?: string } = {}) {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  const callback = await pickMemberAt(authorize, options);
  return redeemSignInCode(callback.searchParams, { state: callback.searchParams.get("state")!, nonce: authorize.searchParams.get("nonce")! }, transport);
}

describe("checking the platform's ID token", () => {
  it("accepts the emulator's token for this console's app and this nonce, and reads who signed in", async () => {
    expect(await signInThrough()).toMatchObject({ ok: true, person: { userId: expect.stringMatching(/^U/), teamId: expect.stringMatching(/^T/) } });
  });

  it("refuses a token whose payload was changed after signing (another user id), one sent unsigned, and one whose signature was cut", async () => {
    const otherUser = replacingIdToken((real) => {
      const [header, , signature] = real.split(".");
      return `${header}.${base64url(JSON.stringify({ ...claimsOf(real), sub: "U0ADMIN0001" }))}.${signature}`;
    });
    expect(await signInThrough(otherUser)).toMatchObject({ ok: false, problem: "bad_signature" });
    const unsigned = replacingIdToken((real) => `${base64url(JSON.stringify({ alg: "none" }))}.${real.split(".")[1]}.`);
    expect(await signInThrough(unsigned)).toMatchObject({ ok: false, problem: "bad_signature" });
    const cut = replacingIdToken((real) => real.slice(0, -8));
    expect(await signInThrough(cut)).toMatchObject({ ok: false, problem: "bad_signature" });
  });

  it("refuses a token the platform issued to another app (aud is that app's client id)", async () => {
    const legacy = defaultAppCredentials("session-tests", "legacy").clientId;
    const otherApp = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), aud: legacy }));
    expect(await signInThrough(otherApp)).toMatchObject({ ok: false, problem: "wrong_audience" });
  });

  it("refuses claims too long for the sign-in cookie, naming the claim, where the cookie's limit answered exchange_failed", async () => {
    const longName = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), name: "n".repeat(5_000) }));
    expect(await signInThrough(longName)).toMatchObject({
      ok: false,
      problem: "profile_too_large",
      detail: expect.stringContaining("name claim is 5000 characters"),
    });
    const longPicture = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), picture: `https://example.com/${"p".repeat(3_000)}` }));
    expect(await signInThrough(longPicture)).toMatchObject({ ok: false, problem: "profile_too_large", detail: expect.stringContaining("picture") });
    // At the bounds, it signs in.
    const atBounds = replacingIdToken((real) =>
      signedByIssuer({
        ...claimsOf(real),
        name: "n".repeat(128),
        email: `${"e".repeat(240)}@example.com`,
        picture: `https://example.com/${"p".repeat(1_000)}`,
      }),
    );
    expect(await signInThrough(atBounds)).toMatchObject({ ok: true });
  });

  it("refuses a token whose authorized party (azp) is another client, even with this console among its audiences", async () => {
    const other = "9999.9999";
    const forOther = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), aud: [claimsOf(real).aud, other], azp: other }));
    expect(await signInThrough(forOther)).toMatchObject({ ok: false, problem: "wrong_audience", detail: expect.stringContaining("azp") });
    const singleAudience = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), azp: other }));
    expect(await signInThrough(singleAudience)).toMatchObject({ ok: false, problem: "wrong_audience" });
    // This client as the authorized party is what §3.1.3.7 expects: it signs in.
    const ownAzp = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), aud: [claimsOf(real).aud, other], azp: claimsOf(real).aud }));
    expect(await signInThrough(ownAzp)).toMatchObject({ ok: true });
  });

  it("refuses a token issued by another issuer, and one issued long ago though not yet expired", async () => {
    const elsewhere = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), iss: "https://evil.example" }));
    expect(await signInThrough(elsewhere)).toMatchObject({ ok: false, problem: "wrong_issuer" });
    const old = replacingIdToken((real) => {
      const claims = claimsOf(real);
      return signedByIssuer({ ...claims, iat: (claims.iat as number) - 3600 });
    });
    expect(await signInThrough(old)).toMatchObject({ ok: false, problem: "token_expired" });
  });

  it("refuses a token past its exp by the emulator's moved clock, though the server's own clock would still take it", async () => {
    await advanceEmulatorClock(testConsole.origin, 86_400);
    // Issued for the server's clock, a day behind the platform's: by the platform's time it expired long ago.
    const serverNowS = Math.floor(Date.now() / 1000);
    const byServerClock = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), iat: serverNowS, exp: serverNowS + 300 }));
    expect(await signInThrough(byServerClock)).toMatchObject({ ok: false, problem: "token_expired", detail: expect.stringContaining("exp") });
    // The platform's own token, by its clock, still signs in.
    expect(await signInThrough()).toMatchObject({ ok: true });
  });

  it("refuses a token whose nonce is not the one this browser sent", async () => {
    const theirs = replacingIdToken((real) => signedByIssuer({ ...claimsOf(real), nonce: "an-attackers-own-sign-in" }));
    expect(await signInThrough(theirs)).toMatchObject({ ok: false, problem: "nonce_mismatch" });
  });
});
