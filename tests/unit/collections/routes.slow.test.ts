import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as callGet } from "@/app/api/call/[method]/route";
import { GET as exportRoute } from "@/app/api/collections/[id]/export/route";
import { DELETE as revokeLinkRoute, POST as linkRoute } from "@/app/api/collections/[id]/link/route";
import { PUT as orderRoute } from "@/app/api/collections/[id]/order/route";
import { DELETE as removeRequestRoute, PATCH as patchRequestRoute } from "@/app/api/collections/[id]/requests/[requestId]/route";
import { POST as addRequestRoute } from "@/app/api/collections/[id]/requests/route";
import { DELETE as deleteRoute, GET as getRoute, PATCH as patchRoute } from "@/app/api/collections/[id]/route";
import { POST as importRoute } from "@/app/api/collections/import/route";
import { GET as listRoute, POST as createRoute } from "@/app/api/collections/route";
import { GET as sharedRoute } from "@/app/api/collections/shared/[link]/route";
import { canSignIn } from "@/lib/emulator/openid/claims";
import { memberIdAt } from "@/lib/emulator/workspace/members";
import type { Workspace } from "@/lib/emulator/types";
import type { CollectionSummary, CollectionView, SavedRequestView } from "@/lib/collections/universal/model";
import { getStore } from "@/lib/store";
import { startTestConsole, TestBrowser, type TestConsole } from "../support/console";
import { installIn } from "../support/install";
import { pickMemberAt, returnToConsole, SIGN_IN_REDIRECT_URI, startSignIn } from "../signin/support";

/**
 * /api/collections… driven with `new Request(...)`, signed in with the platform (two workspaces): the owner
 * of a collection, a teammate of the same workspace, a member of the other workspace and an admin
 * (ADMIN_USERS) of the other workspace. Who may read and change what, the share link, the files, and a run's
 * call through /api/call naming its saved request.
 */
let testConsole: TestConsole;
let one: Workspace;
let two: Workspace;
const membersOf = (ws: Workspace) => Array.from({ length: 20 }, (_, i) => memberIdAt(ws, i)).filter((id) => canSignIn(ws, id));
let adminId: string;

beforeAll(async () => {
  testConsole = await startTestConsole({ AUTH_MODE: "oidc", SIGN_IN_REDIRECT_URI }, { redirectUrls: [SIGN_IN_REDIRECT_URI], workspaces: 2 });
  [one, two] = [...testConsole.emulator.emulator.state.workspaces.values()] as [Workspace, Workspace];
  adminId = membersOf(two)[2]!;
  process.env.ADMIN_USERS = adminId;
});
afterAll(() => {
  delete process.env.ADMIN_USERS;
  return testConsole.close();
});

async function signedIn(ws: Workspace, userId: string): Promise<TestBrowser> {
  const browser = new TestBrowser(testConsole.origin);
  const authorize = await startSignIn(browser);
  authorize.searchParams.set("team", ws.team.id);
  expect((await returnToConsole(browser, await pickMemberAt(authorize, { userId }))).status).toBe(303);
  return browser;
}

const token = (prefix: string) => `${prefix}${randomBytes(12).toString("hex")}`;
const p = (params: Record<string, string>) => ({ params });

let owner: TestBrowser;
let teammate: TestBrowser;
let foreigner: TestBrowser;
let admin: TestBrowser;

beforeAll(async () => {
  owner = await signedIn(one, membersOf(one)[0]!);
  teammate = await signedIn(one, membersOf(one)[1]!);
  foreigner = await signedIn(two, membersOf(two)[0]!);
  admin = await signedIn(two, adminId);
});

async function newCollection(browser: TestBrowser, name = "Onboarding"): Promise<CollectionView> {
  const made = await browser.send(createRoute, "/api/collections", { method: "POST", json: { name } });
  expect(made.status).toBe(201);
  return ((await made.json()) as { collection: CollectionView }).collection;
}

const postNote = {
  name: "Post a note",
  method: "chat.postMessage",
  httpMethod: "POST",
  encoding: "json",
  tokenKind: "bot",
  args: [{ key: "channel", value: "general" }],
};

async function addRequest(browser: TestBrowser, id: string, body: unknown): Promise<Response> {
  return browser.send(addRequestRoute, `/api/collections/${id}/requests`, { method: "POST", json: body, params: { id } });
}

async function read(browser: TestBrowser, id: string): Promise<Response> {
  return browser.send(getRoute, `/api/collections/${id}`, p({ id }));
}

const listIds = async (browser: TestBrowser) =>
  ((await (await browser.send(listRoute, "/api/collections")).json()) as { collections: CollectionSummary[] }).collections.map((c) => c.id);

describe("saved requests", () => {
  it("saves a named request into the owner's collection, and refuses one that carries a token, keeping nothing of it", async () => {
    const c = await newCollection(owner);
    expect((await addRequest(owner, c.id, postNote)).status).toBe(201);
    const withCredential = await addRequest(owner, c.id, { ...postNote, args: [...postNote.args, { key: "token", value: "anything" }] });
    expect(withCredential.status).toBe(422);
    expect(await withCredential.json()).toMatchObject({
      ok: false,
      error: "invalid_request",
      message: expect.stringContaining('"token" carries a credential'),
    });
    const secret = token("xoxb-1-");
    const inValue = await addRequest(owner, c.id, { ...postNote, args: [{ key: "text", value: `Bearer ${secret}` }] });
    expect(inValue.status).toBe(422);
    expect(await inValue.text()).not.toContain(secret);
    const kept = await (await getStore()).collections.get(c.id);
    expect(kept?.requests.map((r) => r.name)).toEqual(["Post a note"]);
    expect(JSON.stringify(kept)).not.toContain(secret);
  });

  it("renames, reorders (each id once, else 409 order_mismatch) and removes saved requests", async () => {
    const c = await newCollection(owner);
    const ids: string[] = [];
    for (const name of ["a", "b", "c"])
      ids.push(((await (await addRequest(owner, c.id, { ...postNote, name })).json()) as { request: SavedRequestView }).request.id);
    const [a, b, d] = ids as [string, string, string];
    const renamed = await owner.send(patchRequestRoute, `/api/collections/${c.id}/requests/${b}`, {
      method: "PATCH",
      json: { name: "b2" },
      params: { id: c.id, requestId: b },
    });
    expect(((await renamed.json()) as { request: SavedRequestView }).request).toMatchObject({ name: "b2", method: "chat.postMessage", args: postNote.args });
    const reorder = (order: string[]) =>
      owner.send(orderRoute, `/api/collections/${c.id}/order`, { method: "PUT", json: { ids: order }, params: { id: c.id } });
    expect((await reorder([d, a, b])).status).toBe(200);
    const stale = await reorder([d, a]);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "order_mismatch" });
    expect(
      (await owner.send(removeRequestRoute, `/api/collections/${c.id}/requests/${a}`, { method: "DELETE", params: { id: c.id, requestId: a } })).status,
    ).toBe(200);
    const gone = await owner.send(removeRequestRoute, `/api/collections/${c.id}/requests/${a}`, { method: "DELETE", params: { id: c.id, requestId: a } });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error: "unknown_saved_request" });
    const now = ((await (await read(owner, c.id)).json()) as { collection: CollectionView }).collection;
    expect(now.requests.map((r) => [r.position, r.name])).toEqual([
      [0, "c"],
      [1, "b2"],
    ]);
  });

  it("refuses a write from another site, and a body past its bounds, with the console's codes", async () => {
    const c = await newCollection(owner);
    const crossSite = await owner.send(createRoute, "/api/collections", {
      method: "POST",
      json: { name: "x" },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: "forbidden_origin" });
    const long = await addRequest(owner, c.id, { ...postNote, name: "n".repeat(101) });
    expect(long.status).toBe(422);
    expect(await long.json()).toMatchObject({ message: expect.stringContaining("at most 100 characters") });
  });
});

describe("who may read and change a collection", () => {
  it("keeps it the owner's until shared; shared, a teammate reads it but cannot change it, an admin can, another workspace cannot read it", async () => {
    const c = await newCollection(owner, "Team runbook");
    await addRequest(owner, c.id, postNote);
    expect(await listIds(teammate)).not.toContain(c.id);
    expect((await read(teammate, c.id)).status).toBe(404);

    expect((await owner.send(patchRoute, `/api/collections/${c.id}`, { method: "PATCH", json: { sharedWithTeam: true }, params: { id: c.id } })).status).toBe(
      200,
    );
    expect(await listIds(teammate)).toContain(c.id);
    const seen = ((await (await read(teammate, c.id)).json()) as { collection: CollectionView }).collection;
    expect(seen).toMatchObject({ name: "Team runbook", mine: false, editable: false, requestCount: 1 });

    const refused = [
      await teammate.send(patchRoute, `/api/collections/${c.id}`, { method: "PATCH", json: { name: "Mine now" }, params: { id: c.id } }),
      await addRequest(teammate, c.id, postNote),
      await teammate.send(deleteRoute, `/api/collections/${c.id}`, { method: "DELETE", params: { id: c.id } }),
      await teammate.send(linkRoute, `/api/collections/${c.id}/link`, { method: "POST", params: { id: c.id } }),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect(await refused[0]!.json()).toMatchObject({ error: "not_allowed", message: expect.stringContaining("read-only") });

    // Another workspace: not in its list, and the collection answers as if it did not exist.
    expect(await listIds(foreigner)).not.toContain(c.id);
    const foreign = await read(foreigner, c.id);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: "unknown_collection" });
    expect((await foreigner.send(patchRoute, `/api/collections/${c.id}`, { method: "PATCH", json: { name: "x" }, params: { id: c.id } })).status).toBe(404);

    // An admin (of the other workspace) sees it and may change it.
    expect(await listIds(admin)).toContain(c.id);
    const renamed = await admin.send(patchRoute, `/api/collections/${c.id}`, { method: "PATCH", json: { name: "Runbook (checked)" }, params: { id: c.id } });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as { collection: CollectionView }).collection).toMatchObject({ name: "Runbook (checked)", editable: true, mine: false });
    expect(((await (await read(owner, c.id)).json()) as { collection: CollectionView }).collection.name).toBe("Runbook (checked)");
  });

  it("opens by link for a signed-in teammate, never for another workspace; a revoked or replaced link is refused", async () => {
    const c = await newCollection(owner, "Linked");
    const made = await owner.send(linkRoute, `/api/collections/${c.id}/link`, { method: "POST", params: { id: c.id } });
    expect(made.status).toBe(201);
    const { path: linkPath } = (await made.json()) as { path: string };
    const link = new URL(linkPath, testConsole.origin).searchParams.get("shared")!;
    expect(link).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Only its hash is kept: the store holds no trace of the link itself.
    expect(JSON.stringify(await (await getStore()).collections.get(c.id))).not.toContain(link);
    const open = (browser: TestBrowser, l = link) => browser.send(sharedRoute, `/api/collections/shared/${l}`, p({ link: l }));

    const opened = await open(teammate);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { collection: CollectionView }).collection).toMatchObject({ id: c.id, editable: false });
    expect((await open(foreigner)).status).toBe(404);
    // Without sign-in, the link is nothing.
    expect((await open(new TestBrowser(testConsole.origin))).status).toBe(401);

    const replaced = await owner.send(linkRoute, `/api/collections/${c.id}/link`, { method: "POST", params: { id: c.id } });
    const newLink = new URL(((await replaced.json()) as { path: string }).path, testConsole.origin).searchParams.get("shared")!;
    expect((await open(teammate)).status).toBe(404);
    expect((await open(teammate, newLink)).status).toBe(200);

    expect((await owner.send(revokeLinkRoute, `/api/collections/${c.id}/link`, { method: "DELETE", params: { id: c.id } })).status).toBe(200);
    const revoked = await open(teammate, newLink);
    expect(revoked.status).toBe(404);
    expect(await revoked.json()).toMatchObject({ error: "unknown_collection", message: expect.stringContaining("revoked") });
  });
});

describe("collection files", () => {
  it("exports NDJSON and imports it back into a collection that exports the same bytes", async () => {
    const c = await newCollection(owner, "Round trip");
    await addRequest(owner, c.id, postNote);
    await addRequest(owner, c.id, { name: "Read it back", method: "conversations.info", bindings: [{ param: "channel", step: 1, path: "channel" }] });
    const exported = await owner.send(exportRoute, `/api/collections/${c.id}/export`, p({ id: c.id }));
    expect(exported.headers.get("content-type")).toContain("application/x-ndjson");
    expect(exported.headers.get("content-disposition")).toContain('filename="round-trip.switchboard.ndjson"');
    const text = await exported.text();
    const imported = await owner.send(importRoute, "/api/collections/import", { method: "POST", json: { text } });
    expect(imported.status).toBe(201);
    const answer = (await imported.json()) as { collection: CollectionView; skipped: unknown[]; notes: unknown[] };
    expect(answer).toMatchObject({ skipped: [], notes: [] });
    expect(answer.collection.id).not.toBe(c.id);
    const again = await (await owner.send(exportRoute, `/api/collections/${answer.collection.id}/export`, p({ id: answer.collection.id }))).text();
    expect(again).toBe(text);
    // A teammate may not export a collection that is not shared with them.
    expect((await teammate.send(exportRoute, `/api/collections/${c.id}/export`, p({ id: c.id }))).status).toBe(404);
  });

  it("imports a Postman collection, listing what it skipped and dropped; no token it carried is in the store", async () => {
    const fixture = readFileSync(path.join(__dirname, "fixtures", "platform.postman_collection.json"), "utf8");
    const tokens = [token("xoxb-1-"), token("xoxp-1-"), token("xoxb-2-")] as const;
    const text = fixture
      .replace("TOKEN_PLACEHOLDER_BOT", tokens[0])
      .replace("TOKEN_PLACEHOLDER_USER", tokens[1])
      .replaceAll("TOKEN_PLACEHOLDER_QUERY", tokens[2]);
    const imported = await owner.send(importRoute, "/api/collections/import", { method: "POST", json: { text } });
    expect(imported.status).toBe(201);
    const answer = (await imported.json()) as { collection: CollectionView; skipped: Array<{ item: string }>; notes: string[] };
    expect(answer.collection.requests.map((r) => r.method)).toEqual(["chat.postMessage", "conversations.list", "conversations.rename"]);
    expect(answer.skipped.map((s) => s.item)).toEqual(["An old method"]);
    expect(answer.notes).toHaveLength(4);
    const stored = JSON.stringify(await (await getStore()).collections.get(answer.collection.id));
    for (const t of tokens) expect(stored).not.toContain(t);
    expect(stored).not.toMatch(/xox[bp]-/);
  });

  it("refuses a file that is neither format with 400 invalid_collection_file, creating nothing", async () => {
    const before = (await listIds(owner)).length;
    const refused = await owner.send(importRoute, "/api/collections/import", { method: "POST", json: { text: "name,method\nx,auth.test\n" } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "invalid_collection_file", message: expect.stringContaining("Nothing was imported") });
    expect((await listIds(owner)).length).toBe(before);
  });
});

describe("a run's call", () => {
  it("names its saved request to /api/call, which never forwards it to the platform", async () => {
    const installed = await installIn(owner, `?team=${one.team.id}`);
    expect(installed.status).toBe(303);
    const installation = new URL(installed.headers.get("location")!, testConsole.origin).searchParams.get("installed")!;
    const answer = await owner.send(
      callGet,
      `/api/call/auth.test?installation=${encodeURIComponent(installation)}&token=bot&savedRequestId=req_abc`,
      p({ method: "auth.test" }),
    );
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { ok: boolean }).ok).toBe(true);
    expect(answer.headers.get("x-upstream-request")).not.toContain("savedRequestId");
    const tooLong = await owner.send(
      callGet,
      `/api/call/auth.test?installation=${encodeURIComponent(installation)}&savedRequestId=${"x".repeat(65)}`,
      p({ method: "auth.test" }),
    );
    expect(tooLong.status).toBe(422);
  });
});
