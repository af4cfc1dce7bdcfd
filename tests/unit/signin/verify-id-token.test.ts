import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { defaultAppCredentials } from "@/lib/emulator";
import { platformClockFor } from "@/lib/platform";
import { issuerMetadata } from "@/lib/signin/discovery";
import { issuerKeys } from "@/lib/signin/issuer-keys";
import { verifyIdToken, type IdTokenExpectations } from "@/lib/signin/verify-id-token";
import { startTestConsole, type TestConsole } from "../support/console";
import { advanceEmulatorClock, pickMemberAt, SIGN_IN_REDIRECT_URI } from "./support";

let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
});
afterAll(() => testConsole.close());

/** An ID token the emulator issues to an app (the console's, or its legacy app) for a sign-in with `nonce`. */
async function idTokenFromEmulator(app: "rotation" | "legacy", nonce: string): Promise<string> {
  const { clientId, clientSecret } = defaultAppCredentials("session-tests", app);
  const authorize = new URL(`${testConsole.origin}/emulator/openid/connect/authorize`);
  authorize.search = new URLSearchParams({
    response_type: "code",
    scope: "openid profile email",
    client_id: clientId,
    redirect_uri: SIGN_IN_REDIRECT_URI,
    nonce,
  }).toString();
  const code = (await pickMemberAt(authorize)).searchParams.get("code")!;
  const answer = await fetch(`${testConsole.origin}/emulator/api/openid.connect.token`, {
    method: "POST",
    body: new URLSearchParams({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: SIGN_IN_REDIRECT_URI }),
  });
  const body = (await answer.json()) as { ok: boolean; id_token?: string };
  if (!body.ok || !body.id_token) throw new Error(`openid.connect.token answered ${JSON.stringify(body)}`);
  return body.id_token;
}

async function expectations(nonce: string): Promise<IdTokenExpectations> {
  const metadata = await issuerMetadata();
  return {
    issuer: metadata.issuer,
    clientId: getConfig().clientId,
    nonce,
    keys: issuerKeys(metadata.jwksUri),
    nowMs: platformClockFor(getConfig().upstream.baseUrl).now(),
  };
}

const base64url = (value: string) => Buffer.from(value).toString("base64url");

describe("verifying the platform's ID token", () => {
  it("accepts the emulator's token for this console's app and this nonce, and reads who signed in", async () => {
    const check = await verifyIdToken(await idTokenFromEmulator("rotation", "n-ok"), await expectations("n-ok"));
    expect(check).toMatchObject({ ok: true, person: { userId: expect.stringMatching(/^U/), teamId: expect.stringMatching(/^T/) } });
  });

  it("refuses a token whose payload was changed after signing (another user id), and one whose signature was cut", async () => {
    const token = await idTokenFromEmulator("rotation", "n-tamper");
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const forged = `${header}.${base64url(JSON.stringify({ ...claims, sub: "U0ADMIN0001" }))}.${signature}`;
    expect(await verifyIdToken(forged, await expectations("n-tamper"))).toMatchObject({ ok: false, problem: "bad_signature" });
    const unsigned = `${base64url(JSON.stringify({ alg: "none" }))}.${payload}.`;
    expect(await verifyIdToken(unsigned, await expectations("n-tamper"))).toMatchObject({ ok: false });
    expect(await verifyIdToken(`${header}.${payload}.${signature.slice(0, -8)}`, await expectations("n-tamper"))).toMatchObject({
      ok: false,
      problem: "bad_signature",
    });
  });

  it("refuses a token the platform issued to another app (aud is that app's client id)", async () => {
    const token = await idTokenFromEmulator("legacy", "n-aud");
    expect(await verifyIdToken(token, await expectations("n-aud"))).toMatchObject({ ok: false, problem: "wrong_audience" });
  });

  it("refuses a token past its exp by the emulator's moved clock, though the server's own clock would still take it", async () => {
    const token = await idTokenFromEmulator("rotation", "n-exp");
    await advanceEmulatorClock(testConsole.origin, 10 * 60);
    // Any answer of the platform tells the console its time (here its keys, read again).
    const { fetchFromIssuer } = await import("@/lib/signin/issuer-fetch");
    await fetchFromIssuer((await issuerMetadata()).jwksUri);
    expect(await verifyIdToken(token, await expectations("n-exp"))).toMatchObject({ ok: false, problem: "token_expired" });
    expect(await verifyIdToken(token, { ...(await expectations("n-exp")), nowMs: Date.now() })).toMatchObject({ ok: true });
  });

  it("refuses a token whose nonce is not the one this browser sent", async () => {
    const token = await idTokenFromEmulator("rotation", "n-theirs");
    expect(await verifyIdToken(token, await expectations("n-mine"))).toMatchObject({ ok: false, problem: "nonce_mismatch" });
  });
});
