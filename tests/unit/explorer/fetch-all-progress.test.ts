import { describe, expect, it } from "vitest";
import type { PageEvent } from "@/lib/explorer/fetch-all-events";
import { FetchAllProgress } from "@/lib/explorer/fetch-all-progress";

const page = (n: number, ids: string[]): PageEvent => ({
  type: "page",
  page: n,
  count: ids.length,
  total: 0,
  next_cursor: "c",
  ms: 3,
  response: { ok: true, members: ids.map((id) => ({ id })) },
});

describe("a Fetch all's progress in the browser", () => {
  it("appends every page's items to one array that its snapshots share, each snapshot counting what it had", () => {
    const progress = new FetchAllProgress(1, "users.list", 1000);
    progress.apply(page(1, ["U1", "U2"]));
    const early = progress.snapshot();
    for (let n = 2; n <= 1000; n++) progress.apply(page(n, [`U${2 * n - 1}`, `U${2 * n}`]));
    const late = progress.snapshot();

    expect(early).toMatchObject({ pages: 1, count: 2, status: "running" });
    expect(late).toMatchObject({ pages: 1000, count: 2000, field: "members", kind: "members" });
    // No copy per page: the early snapshot's array is the walk's own, grown since.
    expect(late.items).toBe(early.items);
    expect(late.items.slice(0, late.count).map((m) => (m as { id: string }).id)).toEqual(Array.from({ length: 2000 }, (_, i) => `U${i + 1}`));
    expect(late.timings).toHaveLength(1000);
    expect(late.timings[999]).toEqual({ page: 1000, count: 2, ms: 3 });
  });

  it("keeps what arrived when cancelled, and nothing read after, and a finished walk cannot be cancelled", () => {
    const progress = new FetchAllProgress(2, "users.list", 1000);
    progress.apply(page(1, ["U1"]));
    progress.apply({ type: "ratelimited", page: 2, retryAfterS: 3 }, 2000);
    expect(progress.snapshot()).toMatchObject({ status: "waiting", retryAt: 5000, retryAfterS: 3 });
    progress.cancel(2500);
    expect(progress.snapshot()).toMatchObject({ status: "cancelled", pages: 1, count: 1, endedAt: 2500, retryAt: null });
    expect(progress.active).toBe(false);
    // A page still in the stream when Cancel was pressed is not added.
    progress.apply(page(2, ["U2"]));
    expect(progress.snapshot()).toMatchObject({ status: "cancelled", pages: 1, count: 1 });

    const done = new FetchAllProgress(3, "conversations.list", 1000);
    done.apply({ type: "done", pages: 0, items: 0, capped: false, ms: 1 }, 1200);
    done.cancel(1300);
    expect(done.snapshot()).toMatchObject({ status: "done", endedAt: 1200 });
  });
});
