import { describe, expect, it } from "vitest";
import { olderFirst, togglePicked } from "@/components/history/history-picks";
import type { HistoryEntry } from "@/lib/explorer/history";

const entry = (id: string, at: number) => ({ id, at }) as HistoryEntry;

describe("the entries picked to compare", () => {
  it("are kept whole, so two picked on different pages are compared, the older first", () => {
    // Picked on the first page, then one from an older page: the first page's entries are gone from the list.
    let picked = togglePicked([], entry("h_new", 2_000));
    picked = togglePicked(picked, entry("h_old", 1_000));
    expect(olderFirst(picked)?.map((e) => e.id)).toEqual(["h_old", "h_new"]);
  });

  it("keep the two newest picks, and a second click unpicks", () => {
    let picked = togglePicked([], entry("a", 1));
    picked = togglePicked(picked, entry("b", 2));
    picked = togglePicked(picked, entry("c", 3));
    expect(picked.map((e) => e.id)).toEqual(["b", "c"]);
    picked = togglePicked(picked, entry("b", 2));
    expect(picked.map((e) => e.id)).toEqual(["c"]);
    expect(olderFirst(picked)).toBeNull();
  });
});
