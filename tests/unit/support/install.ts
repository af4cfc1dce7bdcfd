import { GET as callbackRoute } from "@/app/oauth/callback/route";
import { GET as installRoute } from "@/app/oauth/install/route";
import { consentAt, type TestBrowser } from "./console";

/** "Add to workspace" → consent page → callback, in one browser. Returns the callback's response. */
export async function installIn(browser: TestBrowser, query = "", options: { userId?: string } = {}): Promise<Response> {
  const start = await browser.send(installRoute, `/oauth/install${query}`);
  const location = start.headers.get("location");
  if (start.status !== 302 || !location) throw new Error(`install answered ${start.status}: ${await start.text()}`);
  const callback = new URL(await consentAt(location, "allow", options.userId));
  return browser.send(callbackRoute, callback.pathname + callback.search);
}

/** The callback URL (path and query) the consent page sends the browser to, without following it. */
export async function callbackPathFor(browser: TestBrowser, decision: "allow" | "deny" = "allow"): Promise<string> {
  const start = await browser.send(installRoute, "/oauth/install");
  const callback = new URL(await consentAt(start.headers.get("location") ?? "", decision));
  return callback.pathname + callback.search;
}
