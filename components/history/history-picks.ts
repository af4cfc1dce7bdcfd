import type { HistoryEntry } from "@/lib/explorer/history";

/** The picks after a click on `entry`'s box: unpicked if it was, else picked, the two newest picks kept. */
export function togglePicked(picked: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return picked.some((p) => p.id === entry.id) ? picked.filter((p) => p.id !== entry.id) : [...picked, entry].slice(-2);
}

/** The two picks, the older first so that the diff reads as what changed since; null until two are picked. */
export function olderFirst(picked: readonly HistoryEntry[]): [HistoryEntry, HistoryEntry] | null {
  const [a, b] = picked;
  if (!a || !b) return null;
  return a.at <= b.at ? [a, b] : [b, a];
}
