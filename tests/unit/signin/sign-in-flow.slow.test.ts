import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/me/route";
import { POST as signOutRoute } from "@/app/auth/signout/route";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { advanceEmulatorClock, pickMemberAt, returnToConsole, signIn, SIGN_IN_REDIRECT_URI, startSignIn } from "./support";
import { getStore } from "@/lib/store";

let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  // A sign-in reads the person's sign-out count from the store: open it (seconds for PGlite on a busy machine) before the first.
  await getStore();
});
afterAll(() => testConsole.close());

const browser = () => new TestBrowser(testConsole.origin);

async function whoIsSignedIn(b: TestBrowser) {
  const response = await b.send(meRoute, "/api/me");
  // Nobody signed in: the API's sign-in gate answers before the route does.
  if (response.status === 401) {
    expect(await response.json()).toMatchObject({ ok: false, error: "sign_in_required" });
    return { authMode: "oidc", person: null };
  }
  expect(response.status).toBe(200);
  return (await response.json()) as { authMode: string; person: Record<string, string> | null };
}

/** The problem a callback's error page names, after checking it offers "Sign in again". */
async function problemShown(response: Response): Promise<string | undefined> {
  expect(response.status).toBe(400);
  const html = await response.text();
  expect(html).toContain('href="/signin">Sign in again</a>');
  return /data-problem="([^"]+)"/.exec(html)?.[1];
}

describe("signing in with the platform (OpenID Connect against the emulator)", () => {
  it("sends the person to the authorize endpoint the issuer's discovery names, with a state and a nonce of this browser", async () => {
    const b = browser();
    const authorize = await startSignIn(b);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${testConsole.origin}/emulator/openid/connect/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      scope: "openid profile email",
      client_id: process.env.CLIENT_ID ?? expect.any(String),
      redirect_uri: SIGN_IN_REDIRECT_URI,
    });
    expect(authorize.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get("nonce")).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get("nonce")).not.toBe(authorize.searchParams.get("state"));
    // Neither travels in the clear in the cookie that remembers them.
    const cookies = b.cookieHeader();
    expect(cookies).toContain("sb_signin_state=");
    expect(cookies).not.toContain(authorize.searchParams.get("state")!);
    expect(cookies).not.toContain(authorize.searchParams.get("nonce")!);
  });

  it("signs in the member picked on the platform's page and lands back where the person was, naming them and their workspace", async () => {
    const b = browser();
    const authorize = await startSignIn(b, "/explorer?method=users.list");
    const page = await (await fetch(authorize)).text();
    const [, pickedId, pickedName] = /<option value="([^"]+)" selected>([^<(]+) \(@/.exec(page) ?? [];
    const callback = await pickMemberAt(authorize);
    const back = await returnToConsole(b, callback);
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/explorer?method=users.list");
    const me = await whoIsSignedIn(b);
    expect(me.authMode).toBe("oidc");
    expect(me.person).toMatchObject({ userId: pickedId, teamId: expect.stringMatching(/^T/), teamName: expect.any(String), name: pickedName });
    expect(me.person!.email).toContain("@");
    // The sealed cookie holds them, never readable in the clear.
    expect(b.cookieHeader()).toContain("sb_signin=");
    expect(decodeURIComponent(b.cookieHeader())).not.toContain(me.person!.userId);
  });

  it("signs in while the emulator's clock is a day ahead: the ID token is judged by the platform's time", async () => {
    await advanceEmulatorClock(testConsole.origin, 86_400);
    const b = browser();
    expect((await signIn(b)).status).toBe(303);
    expect((await whoIsSignedIn(b)).person).not.toBeNull();
  });

  it("refuses a replayed callback (the back button, a reload) and a state this browser never started", async () => {
    const b = browser();
    const callback = await pickMemberAt(await startSignIn(b));
    expect((await returnToConsole(b, callback)).status).toBe(303);
    expect(await problemShown(await returnToConsole(b, callback))).toBe("replayed");

    const stranger = browser();
    await startSignIn(stranger);
    const forged = new URL(callback);
    forged.searchParams.set("state", "f".repeat(43));
    expect(await problemShown(await returnToConsole(stranger, forged))).toBe("mismatched");
    // A browser that never started a sign-in (the link was sent to it) is not signed in by it.
    const sentTheLink = browser();
    expect(await problemShown(await returnToConsole(sentTheLink, callback))).toBe("missing");
    expect((await whoIsSignedIn(sentTheLink)).person).toBeNull();
  });

  it("refuses a code obtained with another nonce than this browser's (code injection), signing nobody in", async () => {
    const b = browser();
    const authorize = await startSignIn(b);
    authorize.searchParams.set("nonce", "an-attackers-own-sign-in");
    const back = await returnToConsole(b, await pickMemberAt(authorize));
    expect(await problemShown(back)).toBe("nonce_mismatch");
    expect((await whoIsSignedIn(b)).person).toBeNull();
  });

  it("says the code expired when the emulator's clock passed its 10 minutes before the person came back", async () => {
    const b = browser();
    const callback = await pickMemberAt(await startSignIn(b));
    await advanceEmulatorClock(testConsole.origin, 11 * 60);
    expect(await problemShown(await returnToConsole(b, callback))).toBe("code_rejected");
    expect((await whoIsSignedIn(b)).person).toBeNull();
  });

  it("says the sign-in was cancelled when the person pressed Cancel on the platform's page", async () => {
    const b = browser();
    const back = await returnToConsole(b, await pickMemberAt(await startSignIn(b), { decision: "deny" }));
    const html = await back.clone().text();
    expect(await problemShown(back)).toBe("access_denied");
    expect(html).toContain("The sign-in was cancelled");
  });

  it("names no code of a crafted error link the platform could not have sent", async () => {
    const b = browser();
    const authorize = await startSignIn(b);
    const crafted = new URL(SIGN_IN_REDIRECT_URI);
    crafted.searchParams.set("state", authorize.searchParams.get("state")!);
    crafted.searchParams.set("error", "<b>call us at 555</b>");
    const html = await (await returnToConsole(b, crafted)).text();
    expect(html).not.toContain("555");
    expect(html).toContain('data-platform-error="unknown"');
  });

  it("signs out on the console's own POST, and refuses one another site sends", async () => {
    const b = browser();
    await signIn(b);
    const forged = await b.send(signOutRoute, "/auth/signout", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(forged.status).toBe(403);
    expect((await whoIsSignedIn(b)).person).not.toBeNull();
    const out = await b.send(signOutRoute, "/auth/signout", { method: "POST" });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/auth/signed-out");
    expect((await whoIsSignedIn(b)).person).toBeNull();
  });

  it("sends the person back only to a page of this console after signing in", async () => {
    for (const next of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "/\u0000x",
      "/a\u0007b",
      "/\tevil",
      "/x\u0085y",
      "javascript:alert(1)",
      // Paths the URL parser tidies into a protocol-relative //host.
      "/.//evil.example",
      "/..//evil.example",
      "/%2e//evil.example",
      "/a/..//evil.example/x",
      "/./%2e/..//evil.example",
    ]) {
      const b = browser();
      const back = await signIn(b, next);
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe("/");
    }
  });

  it("sends the person back to a page whose address holds characters outside Latin-1, encoded as a browser would", async () => {
    // U+2028 (a line separator) cannot go in a Location header as it is: it answered 500 after the sign-in.
    for (const [next, location] of [
      ["/\u2028x", "/%E2%80%A8x"],
      ["/explorer?p.text=caf\u00e9 \u{1F600}", "/explorer?p.text=caf%C3%A9%20%F0%9F%98%80"],
    ] as const) {
      const b = browser();
      const back = await signIn(b, next);
      expect(back.status).toBe(303);
      expect(back.headers.get("location")).toBe(location);
      expect((await whoIsSignedIn(b)).person).not.toBeNull();
    }
  });

  it("keeps signing in after a link with a huge return path: the path that does not fit becomes the dashboard, and no sign-in answers 507", async () => {
    const b = browser();
    const huge = `/explorer?p.text=${"a".repeat(2500)}`;
    // A link another site sends: it starts a sign-in nobody completes.
    await startSignIn(b, huge);
    expect(stateCookieBytes(b)).toBeLessThan(4000);
    // The person's own sign-in, started afterwards, goes through.
    const back = await signIn(b, "/webhooks");
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe("/webhooks");
    // And the huge link, completed, lands on the dashboard.
    const again = browser();
    expect((await signIn(again, huge)).headers.get("location")).toBe("/");
  });

  it("drops the oldest pending sign-in when several long return paths would not fit in the cookie, keeping the newest", async () => {
    const b = browser();
    const long = (i: number) => `/explorer?p.text=${String(i).repeat(900)}`;
    const started: URL[] = [];
    for (let i = 1; i <= 6; i++) started.push(await startSignIn(b, long(i)));
    expect(stateCookieBytes(b)).toBeLessThan(4000);
    // The newest completes, back where it began; the oldest was dropped to make room.
    const newest = await returnToConsole(b, await pickMemberAt(started[5]!));
    expect(newest.status).toBe(303);
    expect(newest.headers.get("location")).toBe(long(6));
    expect(await problemShown(await returnToConsole(b, await pickMemberAt(started[0]!)))).toBe("mismatched");
  });

  it("forgets this browser's pending sign-ins on sign-out", async () => {
    const b = browser();
    await signIn(b);
    await startSignIn(b, "/explorer");
    expect(b.cookieHeader()).toContain("sb_signin_state=");
    await b.send(signOutRoute, "/auth/signout", { method: "POST" });
    expect(b.cookieHeader()).not.toContain("sb_signin_state=");
  });
});

/** The size of this browser's sign-in state cookie (name, value), as the browser stores it. */
function stateCookieBytes(b: TestBrowser): number {
  const value = b.cookies.get("sb_signin_state");
  if (value === undefined) throw new Error("no sign-in state cookie");
  return "sb_signin_state".length + 1 + value.length;
}
