import { afterAll, describe, expect, it } from "vitest";

describe("the process's store", () => {
  const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, SESSION_PASSWORD: process.env.SESSION_PASSWORD };
  afterAll(() => Object.assign(process.env, saved));

  it("is one per process, opened from the configuration (here DATA_DIR=memory://), with keys from SESSION_PASSWORD", async () => {
    process.env.DATA_DIR = "memory://";
    delete process.env.DATABASE_URL;
    process.env.SESSION_PASSWORD = "s".repeat(40);
    const { getStore } = await import("@/lib/store");
    const [one, two] = await Promise.all([getStore(), getStore()]);
    expect(one).toBe(two);
    expect(one.kind).toBe("pglite");
    await one.installations.put({ id: "T1-A1", appKey: "rotation", team: { id: "T1", name: "Acme" }, state: "active", installedAt: 1, updatedAt: 1 });
    expect((await (await getStore()).installations.get("T1-A1"))?.version).toBe(1);
    await one.close();
  }, 60_000);
});
