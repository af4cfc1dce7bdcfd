/**
 * Sign-out ends the sign-in, not only this browser's cookie (issue 37.5): a copy of the cookie taken
 * before POST /auth/signout is refused afterwards by the API and the pages, though its seal still opens.
 * This console's store is PGlite; tests/unit/session/sign-out-postgres.slow.test.ts runs it across instances.
 */
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/me/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { POST as testTokenRoute } from "@/app/api/tokens/test/route";
import { POST as signOutRoute } from "@/app/auth/signout/route";
import { proxy } from "@/proxy";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { signIn, SIGN_IN_REDIRECT_URI } from "./support";
import { getStore } from "@/lib/store";

let testConsole: TestConsole;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  // A sign-in reads the person's sign-out count from the store: open it (seconds for PGlite on a busy machine) before the first.
  await getStore();
});
afterAll(() => testConsole.close());

const browser = () => new TestBrowser(testConsole.origin);

async function signedInAs(b: TestBrowser): Promise<string | null> {
  const response = await b.send(meRoute, "/api/me");
  if (response.status === 401) return null;
  expect(response.status).toBe(200);
  return ((await response.json()) as { person: { userId: string } | null }).person?.userId ?? null;
}

/** What the pages' gate (proxy.ts) does with this browser's cookies on the dashboard: 307 to sign in, or through. */
async function dashboard(b: TestBrowser): Promise<number> {
  const response = await proxy(new NextRequest(new URL("/", testConsole.origin), { headers: { cookie: b.cookieHeader() } }));
  return response.headers.get("x-middleware-next") === "1" ? 200 : response.status;
}

describe("signing out", () => {
  it("refuses a copy of the sign-in cookie taken before sign-out, on the API (me, session, token actions) and the pages", async () => {
    const b = browser();
    await signIn(b);
    const userId = await signedInAs(b);
    expect(userId).toMatch(/^U/);
    const copy = b.fork();
    expect(await signedInAs(copy)).toBe(userId);
    expect((await copy.send(sessionRoute, "/api/session")).status).toBe(200);

    expect((await b.send(signOutRoute, "/auth/signout", { method: "POST" })).status).toBe(303);

    expect(await signedInAs(copy)).toBeNull();
    const session = await copy.send(sessionRoute, "/api/session");
    expect(session.status).toBe(401);
    expect(await session.json()).toMatchObject({ ok: false, error: "sign_in_required" });
    const action = await copy.send(testTokenRoute, "/api/tokens/test", { method: "POST", json: { installation: "T1-A1", token: "bot" } });
    expect(action.status).toBe(401);
    expect(await dashboard(copy)).toBe(307);
  });

  it("ends the person's sign-ins in their other browsers too, lets them sign in again, and leaves other people signed in", async () => {
    const first = browser();
    await signIn(first);
    const userId = (await signedInAs(first))!;
    const second = browser();
    await signIn(second, "/", { userId });
    const someoneElse = browser();
    await signIn(someoneElse, "/", { userId: await otherMember(userId) });
    const someoneElsesId = await signedInAs(someoneElse);
    expect(someoneElsesId).not.toBe(userId);

    await first.send(signOutRoute, "/auth/signout", { method: "POST" });
    expect(await signedInAs(second)).toBeNull();
    expect(await signedInAs(someoneElse)).toBe(someoneElsesId);

    // Signing in again starts a sign-in the earlier sign-out does not end; the old copy stays refused.
    const copyBefore = second.fork();
    await signIn(second, "/", { userId });
    expect(await signedInAs(second)).toBe(userId);
    expect(await dashboard(second)).toBe(200);
    expect(await signedInAs(copyBefore)).toBeNull();
  });
});

/** Another member of the workspace the emulator's sign-in page offers, as its list names them. */
async function otherMember(userId: string): Promise<string> {
  const b = browser();
  const { startSignIn } = await import("./support");
  const page = await (await fetch(await startSignIn(b))).text();
  const ids = [...page.matchAll(/<option value="(U[^"]+)"/g)].map((m) => m[1]!);
  const other = ids.find((id) => id !== userId);
  if (!other) throw new Error("the sign-in page offers one member only");
  return other;
}
