/**
 * The compare view's messages to and from its Web Worker (components/history/diff.worker.ts): what to
 * compare (two history entries, fetched by the worker itself, or two JSON files), and the diff it found,
 * with each value as a short preview so that a megabyte answer never crosses back to the page.
 */
import type { JsonDiffChange } from "./json-diff";

export type CompareSide = { entryId: string } | { file: File };

export interface CompareRequest {
  run: number;
  left: CompareSide;
  right: CompareSide;
}

export interface SideFacts {
  /** The entry's method and time, or the file's name. */
  label: string;
  bytes: number;
  /** The history kept only the first 64 KB of this answer. */
  truncated: boolean;
}

export type PreviewChange =
  | { kind: "added"; path: string; after: string }
  | { kind: "removed"; path: string; before: string }
  | { kind: "changed"; path: string; before: string; after: string };

export type CompareAnswer =
  | {
      run: number;
      ok: true;
      left: SideFacts;
      right: SideFacts;
      changes: PreviewChange[];
      added: number;
      removed: number;
      changed: number;
      /** More changes than listed. */
      limited: boolean;
      /** One side (or both) was truncated: the diff covers what was kept. */
      partial: boolean;
      ms: number;
    }
  | { run: number; ok: false; message: string };

/** How many changes the worker lists (all are counted). */
export const COMPARE_LISTED = 1000;
const PREVIEW_CHARS = 240;

/** A value in a line, cut to a preview. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

export function previewChange(change: JsonDiffChange): PreviewChange {
  if (change.kind === "added") return { kind: "added", path: change.path, after: preview(change.after) };
  if (change.kind === "removed") return { kind: "removed", path: change.path, before: preview(change.before) };
  return { kind: "changed", path: change.path, before: preview(change.before), after: preview(change.after) };
}
