import { readFileSync } from "node:fs";
import type { AuthorizeResult, AuthorizeSourceData } from "@slack/bolt";

type Authorize = (source: AuthorizeSourceData<boolean>) => Promise<AuthorizeResult>;

/**
 * docs/token-api.md's `switchboardAuthorize` for Bolt, read from the page and run as written: only its
 * `fetch` is the test's (the console runs in the test's process, so fetch goes to the route's handler).
 */
export function documentedAuthorize(options: { baseUrl: string; apiKey: string; fetch: typeof fetch }): Authorize {
  const page = readFileSync("docs/token-api.md", "utf8");
  const block = /## Bolt for JavaScript[\s\S]*?```js\n([\s\S]*?)```/.exec(page)?.[1];
  const source = block && /function switchboardAuthorize[\s\S]*?\n}\n/.exec(block)?.[0];
  if (!source) throw new Error("docs/token-api.md no longer shows switchboardAuthorize in its Bolt for JavaScript section");
  const make = new Function("fetch", `${source}\nreturn switchboardAuthorize;`) as (f: typeof fetch) => (o: { baseUrl: string; apiKey: string }) => Authorize;
  return make(options.fetch)({ baseUrl: options.baseUrl, apiKey: options.apiKey });
}
