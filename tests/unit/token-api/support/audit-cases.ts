import { expect, it } from "vitest";
import { POST as createKeyRoute } from "@/app/api/api-keys/route";
import { DELETE as revokeKeyRoute } from "@/app/api/api-keys/[id]/route";
import { GET as tokenRoute } from "@/app/api/v1/installations/[teamId]/token/route";
import { getStore } from "@/lib/store";
import { audit, flushAudit } from "@/lib/token-api/audit";
import type { TestBrowser } from "../../support/console";

/**
 * Issue 37, item 1, on whichever store the test file opened (PGlite, PostgreSQL): a request whose team id
 * the store cannot take (a NUL) must not erase the audit of the other answers written with it.
 */
export function auditCannotBeErased(context: () => { origin: string; operator: TestBrowser; teamId: string }): void {
  async function createKey(name: string): Promise<{ key: string; id: string }> {
    const { operator } = context();
    const response = await operator.send(createKeyRoute, "/api/api-keys", { method: "POST", json: { name } });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { key: string; apiKey: { id: string } };
    return { key: body.key, id: body.apiKey.id };
  }

  /** A backend's request for the token of `rawTeam`, as it reaches the route: Next.js decodes %00 to a NUL. */
  async function askToken(key: string, rawTeam: string): Promise<Response> {
    const { origin } = context();
    const request = new Request(`${origin}/api/v1/installations/${encodeURIComponent(rawTeam)}/token`, { headers: { authorization: `Bearer ${key}` } });
    return tokenRoute(request, { params: Promise.resolve({ teamId: rawTeam }) });
  }

  const usesOf = async (keyId: string) => (await getStore()).apiKeys.listUses(keyId);

  it("keeps every answer's audit when a revoked key asks for the team %00 and T%00 in the same moment", async () => {
    const { operator, teamId } = context();
    const honest = await createKey("honest backend");
    const vandal = await createKey("vandal");
    const revoked = await operator.send(revokeKeyRoute, `/api/api-keys/${vandal.id}`, { method: "DELETE", params: { id: vandal.id } });
    expect(revoked.status).toBe(200);
    await flushAudit();
    // Within one flush of the audit: a token handed out, and the two requests that used to sink the batch.
    const answers = await Promise.all([askToken(honest.key, teamId), askToken(vandal.key, "\u0000"), askToken(vandal.key, "T\u0000")]);
    expect(answers.map((a) => a.status)).toEqual([200, 403, 403]);
    await flushAudit();
    expect(await usesOf(honest.id)).toMatchObject([{ teamId, status: 200 }]);
    const refused = await usesOf(vandal.id);
    expect(refused.map((u) => u.teamId).sort()).toEqual(["%00", "T%00"]);
    expect(refused.map((u) => u.error)).toEqual(["api_key_revoked", "api_key_revoked"]);
  });

  it("writes the other uses of a batch, and the unrecordable one without what the request chose, when the store refuses one row", async () => {
    const { teamId } = context();
    const one = await createKey("one");
    const other = await createKey("other");
    await flushAudit();
    const at = Date.now();
    audit({ keyId: one.id, teamId, kind: "bot", refreshed: false, status: 200, at });
    // What no request can produce any more: a NUL the store cannot take, in the team id and the user id.
    audit({ keyId: other.id, teamId: "T\u0000", kind: "user", userId: "U\u0000", refreshed: false, status: 404, error: "unknown_installation", at });
    audit({ keyId: other.id, teamId, kind: "bot", refreshed: true, status: 200, at: at + 1 });
    await flushAudit();
    expect(await usesOf(one.id)).toMatchObject([{ teamId, status: 200 }]);
    const others = await usesOf(other.id);
    expect(others).toHaveLength(2);
    expect(others[0]).toMatchObject({ teamId, refreshed: true, status: 200 });
    expect(others[1]).toMatchObject({ teamId: "(unrecordable)", kind: "user", status: 404 });
    expect(others[1]).not.toHaveProperty("userId");
  });

  it("writes a batch of many uses over several keys in the order they happened, and each key's latest use", async () => {
    const { teamId } = context();
    const keys = [await createKey("first"), await createKey("second"), await createKey("third")];
    await flushAudit();
    const at = Date.now();
    // 300 uses in one flush, the keys interleaved and the times not in key order.
    for (let i = 0; i < 300; i++)
      audit({
        keyId: keys[i % 3]!.id,
        teamId,
        kind: i % 2 ? "user" : "bot",
        ...(i % 2 ? { userId: "U1" } : {}),
        refreshed: i % 7 === 0,
        status: 200,
        at: at + i,
      });
    await flushAudit();
    const store = await getStore();
    for (const [n, key] of keys.entries()) {
      const uses = await store.apiKeys.listUses(key.id, { limit: 200 });
      expect(uses).toHaveLength(100);
      // Newest first: the times of that key's uses, from its last down.
      expect(uses.map((u) => u.at)).toEqual(Array.from({ length: 100 }, (_, i) => at + 297 + n - 3 * i));
      expect(uses[0]).toMatchObject({ teamId, kind: (297 + n) % 2 ? "user" : "bot", status: 200, refreshed: (297 + n) % 7 === 0 });
      const listed = (await store.apiKeys.list()).find((k) => k.id === key.id);
      expect(listed?.lastUsedAt).toBe(at + 297 + n);
    }
  });
}
