/**
 * Sign-out on PostgreSQL, across instances (issue 37.5): each instance keeps each person's sign-out count
 * in a per-process cache (so checking a cookie costs no round trip), and a sign-out on one instance reaches
 * the others by NOTIFY before a copy of the cookie can be replayed there.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/me/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { getConfig } from "@/lib/config";
import { getStore, type Store } from "@/lib/store";
import { passwordsNewestFirst, sealingKeys } from "@/lib/store/sealing";
import { openStore } from "@/lib/store/store";
import { signIn, SIGN_IN_REDIRECT_URI } from "../signin/support";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { startPostgres, type TestPostgres } from "../support/postgres";

let postgres: TestPostgres;
let testConsole: TestConsole;
let url: string;
let a: Store;
let b: Store;
let admin: pg.Client;

beforeAll(async () => {
  postgres = await startPostgres();
  url = await postgres.createDatabase("sign_outs");
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI, DATABASE_URL: url }, { redirectUrls: [SIGN_IN_REDIRECT_URI] });
  delete process.env.DATA_DIR;
  const config = getConfig();
  const keys = sealingKeys(config.encryptionKeys, passwordsNewestFirst(config.sessionPasswords));
  [a, b] = await Promise.all([openStore({ kind: "postgres", url, keys }), openStore({ kind: "postgres", url, keys })]);
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([a?.close(), b?.close(), admin?.end()]);
  await (await getStore()).close();
  await testConsole?.close();
  await postgres?.stop();
});

async function eventually<T>(read: () => Promise<T>, expected: T, what: string): Promise<void> {
  const until = Date.now() + 5_000;
  while ((await read()) !== expected) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("sign-out across instances on PostgreSQL", () => {
  it("serves a person's count from the instance's cache, and hears another instance's sign-out", async () => {
    const person = "T1:U-cache";
    expect(await a.signOuts.generation(person)).toBe(0);
    expect(await b.signOuts.generation(person)).toBe(0);
    expect(await a.signOuts.record(person, Date.now())).toBe(1);
    await eventually(() => b.signOuts.generation(person), 1, "instance b to hear the sign-out");

    // A change behind the store's back (no NOTIFY) is not seen: b answers from its cache, without asking.
    await admin.query("update sign_outs set generation = 7 where person = $1", [person]);
    expect(await b.signOuts.generation(person)).toBe(1);
    // Announced, it is.
    await admin.query("select pg_notify('switchboard_sign_outs', $1)", [`7 ${person}`]);
    await eventually(() => b.signOuts.generation(person), 7, "instance b to hear the announcement");
    // A count never goes back, whatever is announced (announcements arrive in order: the sentinel's comes after).
    await admin.query("select pg_notify('switchboard_sign_outs', $1)", [`2 ${person}`]);
    await admin.query("select pg_notify('switchboard_sign_outs', $1)", ["3 T1:U-sentinel"]);
    await eventually(() => b.signOuts.generation("T1:U-sentinel"), 3, "instance b to hear the sentinel");
    expect(await b.signOuts.generation(person)).toBe(7);
    expect(await b.signOuts.record(person, Date.now())).toBe(8);
    await eventually(() => a.signOuts.generation(person), 8, "instance a to hear b's sign-out");
  });

  it("refuses a replayed cookie on this instance once the person signed out on another", async () => {
    const browser = new TestBrowser(testConsole.origin);
    await signIn(browser);
    const copy = browser.fork();
    const me = await copy.send(meRoute, "/api/me");
    expect(me.status).toBe(200);
    const { person } = (await me.json()) as { person: { userId: string; teamId: string } };
    // This instance has checked the cookie, so it holds the person's count in its cache.
    expect((await copy.send(sessionRoute, "/api/session")).status).toBe(200);

    // The sign-out lands on the other instance (a load balancer's choice), as POST /auth/signout records it.
    await a.signOuts.record(`${person.teamId}:${person.userId}`, Date.now());

    await eventually(async () => (await copy.fork().send(meRoute, "/api/me")).status, 401, "the copy to be refused");
    expect((await copy.send(sessionRoute, "/api/session")).status).toBe(401);
  });
});
