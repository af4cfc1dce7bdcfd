import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DELETE as forgetRoute } from "@/app/api/installations/[id]/route";
import { GET as readyRoute } from "@/app/api/ready/route";
import { GET as sessionRoute } from "@/app/api/session/route";
import { closeStore, getStore } from "@/lib/store";
import { sealingKeys } from "@/lib/store/sealing";
import { openStore, type OpenStoreOptions } from "@/lib/store/store";
import { TestBrowser } from "../../support/console";
import { installIn } from "../../support/install";

interface SessionBody {
  installations: Array<{ id: string; app: { key: string }; state: string; problem: string | null; bot: { masked: string } | null }>;
}
interface ReadyBody {
  ready: boolean;
  checks: { store: { ok: boolean }; secrets: { ok: boolean; error?: string; note?: string } };
}

/**
 * Issue 37.6, through the console's routes: one installation in the store was written by a console with
 * another SESSION_PASSWORD, so this server cannot open its tokens. GET /api/session answered 503 for every
 * installation, and /api/ready 200. Now the list shows that one as needing a reinstall (saying why and what
 * else to do), the rest as they are; readiness says which key is missing; a reinstall replaces it.
 */
export function unreadableRecordSuite(engine: string, origin: () => string, where: () => Omit<OpenStoreOptions, "keys">): void {
  describe(`one installation sealed with a key this server does not have (${engine})`, () => {
    it("is listed as unreadable with what to do, the others as they are; readiness says so; a reinstall replaces it, and forgetting it works too", async () => {
      const browser = new TestBrowser(origin());
      expect((await installIn(browser)).status).toBe(303);
      expect((await installIn(browser, "?app=legacy")).status).toBe(303);
      const session = async () => (await (await browser.send(sessionRoute, "/api/session")).json()) as SessionBody;
      const installed = (await session()).installations;
      const strange = installed.find((i) => i.app.key === "console")!;
      const other = installed.find((i) => i.app.key === "legacy")!;

      // Rewritten by a console that started with another SESSION_PASSWORD (one process per DATA_DIR: this one stops first).
      const strangerKeys = sealingKeys([], [randomBytes(32).toString("base64url")]);
      const rewriteElsewhere = async () => {
        const record = (await (await getStore()).installations.get(strange.id))!;
        await closeStore();
        const stranger = await openStore({ ...where(), keys: strangerKeys } as OpenStoreOptions);
        await stranger.installations.put(record);
        await stranger.close();
      };
      await rewriteElsewhere();

      const response = await browser.send(sessionRoute, "/api/session");
      expect(response.status).toBe(200);
      const listed = ((await response.json()) as SessionBody).installations;
      expect(listed.find((i) => i.id === strange.id)).toMatchObject({ state: "needs_reinstall", problem: "unreadable_secrets", bot: null });
      expect(listed.find((i) => i.id === other.id)).toMatchObject({ state: "active", bot: { masked: other.bot!.masked } });

      const notReady = await readyRoute();
      expect(notReady.status).toBe(503);
      const body = (await notReady.json()) as ReadyBody;
      expect(body.checks.store.ok).toBe(true);
      expect(body.checks.secrets.ok).toBe(false);
      expect(body.checks.secrets.error).toContain(strangerKeys[0]!.id);
      expect(body.checks.secrets.error).toContain("reinstall");

      // What its card advises: reinstall. The record is replaced with new tokens sealed with this server's key.
      expect((await installIn(browser)).status).toBe(303);
      expect((await session()).installations.find((i) => i.id === strange.id)).toMatchObject({ state: "active", bot: { masked: expect.any(String) } });
      const ready = await readyRoute();
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as ReadyBody).checks.secrets).toMatchObject({
        ok: true,
        note: expect.stringContaining("Every secret in the store is sealed with"),
      });

      // Or forgotten, its card's other way out: judged by what the store knows of it without its secrets.
      await rewriteElsewhere();
      expect((await readyRoute()).status).toBe(503);
      const forgotten = await browser.send(forgetRoute, `/api/installations/${strange.id}`, { method: "DELETE", params: { id: strange.id } });
      expect(forgotten.status).toBe(200);
      expect((await session()).installations.map((i) => i.id)).toEqual([other.id]);
      expect((await readyRoute()).status).toBe(200);
      // PGlite compiles its WebAssembly at each of the five opens: seconds each on a busy machine.
    }, 180_000);
  });
}
