/// <reference lib="webworker" />
/**
 * The compare view's Web Worker: it fetches the two history entries (or reads the two files), parses them,
 * diffs them (lib/explorer/json-diff.ts) and posts back the counts and the first changes as previews. All
 * of it off the page's main thread, which only renders what comes back.
 */
import { COMPARE_LISTED, previewChange, type CompareAnswer, type CompareRequest, type CompareSide, type SideFacts } from "@/lib/explorer/compare";
import type { HistoryEntryWithAnswer } from "@/lib/explorer/history";
import { diffJson } from "@/lib/explorer/json-diff";
import { formatDateTime } from "@/lib/format";
import { fetchJson } from "@/lib/swr/console-fetch";

const worker = self as unknown as DedicatedWorkerGlobalScope;

async function load(side: CompareSide): Promise<{ value: unknown; facts: SideFacts }> {
  if ("file" in side) {
    const text = await side.file.text();
    return { value: parse(text, side.file.name), facts: { label: side.file.name, bytes: side.file.size, truncated: false } };
  }
  const entry = await fetchJson<HistoryEntryWithAnswer>(`/api/history/${encodeURIComponent(side.entryId)}`);
  const label = `${entry.method} at ${formatDateTime(entry.at)}`;
  if (entry.answer === null) throw new Error(`${label} kept no JSON answer to compare.`);
  return { value: parse(entry.answer, label), facts: { label, bytes: entry.answerBytes, truncated: entry.truncated } };
}

function parse(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${label} is not JSON.`);
  }
}

worker.onmessage = async (event: MessageEvent<CompareRequest>) => {
  const { run, left, right } = event.data;
  let answer: CompareAnswer;
  try {
    const started = performance.now();
    const [a, b] = await Promise.all([load(left), load(right)]);
    const diff = diffJson(a.value, b.value, { limit: COMPARE_LISTED });
    answer = {
      run,
      ok: true,
      left: a.facts,
      right: b.facts,
      changes: diff.changes.map(previewChange),
      added: diff.added,
      removed: diff.removed,
      changed: diff.changed,
      limited: diff.limited,
      partial: a.facts.truncated || b.facts.truncated,
      ms: performance.now() - started,
    };
  } catch (error) {
    answer = { run, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  worker.postMessage(answer);
};
