import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findInstallation } from "@/lib/installations/repository";
import { refreshInstallationToken } from "@/lib/installations/rotation/refresh";
import { getRotationRuntime } from "@/lib/installations/rotation/runtime";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";

/**
 * PGlite is one connection: every statement of every request waits its turn. The 200-session soak's p99 is the
 * storm of refreshes after its clock jump (docs/benchmarks.md, "Where the soak's time goes"): each refresh's
 * statements queue before every other request's. These count the statements PGlite runs for one refresh and
 * for one history write (a transaction's BEGIN and COMMIT are one each), so that they do not creep back.
 */
let testConsole: TestConsole;
let statements: string[] | undefined;
const originals = new Map<string, unknown>();

type Runner = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/** Wraps PGlite's query/exec (and a transaction's) so that each statement it runs is noted while `statements` is set. */
function countStatements(): void {
  const proto = PGlite.prototype as unknown as Record<string, Runner>;
  const noted = (name: string, original: Runner): Runner =>
    function (this: unknown, ...args) {
      statements?.push(String(args[0]).replace(/\s+/g, " ").slice(0, 80));
      return original.apply(this, args);
    };
  for (const name of ["query", "exec"]) {
    originals.set(name, proto[name]);
    proto[name] = noted(name, proto[name]!);
  }
  const transaction = proto.transaction!;
  originals.set("transaction", transaction);
  proto.transaction = function (this: unknown, ...args) {
    const body = args[0] as (tx: Record<string, Runner>) => Promise<unknown>;
    statements?.push("BEGIN");
    const wrapped = (tx: Record<string, Runner>) =>
      body(new Proxy(tx, { get: (target, key) => (key === "query" || key === "exec" ? noted(key, target[key]!.bind(target)) : target[key as string]) }));
    return transaction.apply(this, [wrapped, ...args.slice(1)]).finally(() => statements?.push("COMMIT"));
  };
}

beforeAll(async () => {
  testConsole = await startTestConsole({ BACKGROUND_REFRESH: "false" });
  await getStore();
  countStatements();
}, 120_000);
afterEach(() => (statements = undefined));
afterAll(async () => {
  const proto = PGlite.prototype as unknown as Record<string, unknown>;
  for (const [name, original] of originals) proto[name] = original;
  await testConsole.close();
});

describe("a refresh on PGlite", () => {
  it("settles in at most 7 statements: the fresh read, the intent, and the settlement in one transaction of three", async () => {
    const done = await installIn(new TestBrowser(testConsole.origin));
    const id = new URL(done.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
    const before = (await findInstallation(id, { fresh: true }))!;
    statements = [];
    const outcome = await refreshInstallationToken(before, "bot", getRotationRuntime());
    const ran = statements;
    statements = undefined;
    console.log(ran.join("\n"));
    expect(outcome.outcome).toBe("refreshed");
    expect(outcome.installation.bot!.value).not.toBe(before.bot!.value);
    expect(ran.length).toBeLessThanOrEqual(7);
  }, 120_000);
});

describe("a history write on PGlite", () => {
  it("is one statement: the entry and the prune of the person's history together", async () => {
    const store = await getStore();
    statements = [];
    await store.history.record(null, {
      at: Date.now(),
      kind: "call",
      method: "users.list",
      installationId: "I1",
      tokenKind: "bot",
      httpMethod: "POST",
      encoding: "form",
      args: {},
      stripped: [],
      outcome: "ok",
      status: 200,
      durationMs: 1,
      summary: "ok",
      count: null,
      pages: null,
      answerBytes: 2,
      truncated: false,
      savedRequestId: null,
      answer: "{}",
    });
    const ran = statements;
    console.log(ran.join("\n"));
    expect(ran.length).toBe(1);
  }, 60_000);
});
