import { GET as callbackRoute } from "@/app/auth/callback/route";
import { GET as signInRoute } from "@/app/auth/signin/route";
import type { TestBrowser } from "../support/console";

/** The sign-in callback the console registers with the emulator's apps in these tests. */
export const SIGN_IN_REDIRECT_URI = "http://localhost:3000/auth/callback";

/** GET /auth/signin in this browser: the issuer's authorize URL it redirects to. */
export async function startSignIn(browser: TestBrowser, next = "/"): Promise<URL> {
  const start = await browser.send(signInRoute, `/auth/signin?next=${encodeURIComponent(next)}`);
  const location = start.headers.get("location");
  if (start.status !== 302 || !location) throw new Error(`sign-in answered ${start.status}: ${await start.text()}`);
  return new URL(location);
}

/** The emulator's sign-in page, as a person uses it: picks a member (the first offered, or `userId`) and presses Continue or Cancel. */
export async function pickMemberAt(authorizeUrl: URL | string, options: { decision?: "allow" | "deny"; userId?: string } = {}): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status}: ${html.slice(0, 300)}`);
  const offered = /<option value="([^"]+)" selected/.exec(html)?.[1];
  const answer = await fetch(authorizeUrl, {
    method: "POST",
    body: new URLSearchParams({ decision: options.decision ?? "allow", user_id: options.userId ?? offered ?? "" }),
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  const location = answer.headers.get("location");
  if (answer.status !== 302 || !location) throw new Error(`sign-in page answered ${answer.status}`);
  return new URL(location);
}

/** Brings the browser back to the console's callback with what the platform sent. */
export function returnToConsole(browser: TestBrowser, callback: URL): Promise<Response> {
  return browser.send(callbackRoute, callback.pathname + callback.search);
}

/** The whole sign-in: /auth/signin → the emulator's page (the member offered first, or `userId`) → /auth/callback. */
export async function signIn(browser: TestBrowser, next = "/", options: { userId?: string } = {}): Promise<Response> {
  return returnToConsole(browser, await pickMemberAt(await startSignIn(browser, next), options));
}

/** Moves the emulator's clock forward through its admin surface. */
export async function advanceEmulatorClock(origin: string, seconds: number): Promise<void> {
  const response = await fetch(`${origin}/emulator/admin/clock`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${process.env.EMULATOR_ADMIN_TOKEN}` },
    body: JSON.stringify({ advance_s: seconds }),
  });
  if (!response.ok) throw new Error(`admin/clock answered ${response.status}`);
}
