import "server-only";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { platformErrorCode, type PlatformCallResult } from "@/lib/platform/call-method";
import { getStore, type NewHistoryEntry } from "@/lib/store";
import { ownerOf } from "@/lib/access/viewer";
import type { Viewer } from "@/lib/viewer";
import { summarizeAnswer } from "@/lib/explorer/answer-summary";
import { findCollection } from "@/lib/explorer/items";
import { isTokenShaped, keptAnswer } from "./history-answer";

/**
 * Every call and Fetch all the explorer makes goes into its person's lasting history (lib/store/history.ts):
 * the arguments without credentials (the names dropped listed), the outcome, the timing and the answer as
 * history-answer.ts keeps it. A store that fails to record is logged and does not fail the call.
 */

export interface HistoryRequest {
  viewer: Viewer;
  method: string;
  installationId: string;
  tokenKind: string;
  httpMethod: "GET" | "POST";
  encoding: "form" | "json";
  /** The arguments as sent upstream (credential keys already dropped). */
  args: Record<string, unknown>;
  /** Credential keys the request carried, dropped before the call. */
  dropped: readonly string[];
  savedRequestId?: string;
}

/** The arguments to keep: any whose value holds a token-shaped string goes too, its name listed. */
export function keptArguments(args: Record<string, unknown>, dropped: readonly string[]): { args: Record<string, unknown>; stripped: string[] } {
  const kept: Record<string, unknown> = {};
  const stripped = new Set(dropped);
  for (const [key, value] of Object.entries(args)) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    if (text !== undefined && isTokenShaped(text)) stripped.add(key);
    else Object.defineProperty(kept, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { args: kept, stripped: [...stripped].sort() };
}

/** The outcome as the history names it: ok, the platform's error code, or the HTTP failure. */
export function outcomeOf(result: Pick<PlatformCallResult, "ok" | "status" | "body">): string {
  if (result.ok) return "ok";
  return platformErrorCode(result as PlatformCallResult) ?? `http_${result.status}`;
}

/**
 * Why an entry was not recorded, for the log: the error's class and code only. A message may quote what
 * failed to parse or to store, and that may be a secret.
 */
function failureOf(error: unknown): { err: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return { err: error instanceof Error ? error.name : typeof error, ...(typeof code === "string" ? { code } : {}) };
}

/** Writes an entry; any failure (keeping the arguments, the store) is logged, never thrown: the call itself went through. */
export async function recordHistory(
  request: HistoryRequest,
  entry: Omit<NewHistoryEntry, "method" | "installationId" | "tokenKind" | "httpMethod" | "encoding" | "args" | "stripped" | "savedRequestId">,
): Promise<void> {
  try {
    const { args, stripped } = keptArguments(request.args, request.dropped);
    await (
      await getStore()
    ).history.record(ownerOf(request.viewer), {
      ...entry,
      method: request.method,
      installationId: request.installationId,
      tokenKind: request.tokenKind,
      httpMethod: request.httpMethod,
      encoding: request.encoding,
      args,
      stripped,
      savedRequestId: request.savedRequestId ?? null,
    });
  } catch (error) {
    logger.warn({ ...failureOf(error), method: request.method }, "explorer history: the entry was not recorded");
  }
}

/** The history writes of this process not yet done, per owner ("" the operator). */
const pendingWrites = () => processSingleton("explorer-history-writes", () => new Map<string, Set<Promise<void>>>());

/**
 * Keeps `write` (one that never rejects) among the pending writes of the viewer's owner until it is done:
 * the person's next read waits for it, and so does a graceful shutdown before it closes the store.
 */
export function keepHistoryWrite(viewer: Viewer, write: Promise<void>): void {
  const owner = ownerOf(viewer) ?? "";
  const writes = pendingWrites();
  const mine = writes.get(owner) ?? new Set<Promise<void>>();
  writes.set(owner, mine);
  mine.add(write);
  void write.finally(() => {
    mine.delete(write);
    if (mine.size === 0 && writes.get(owner) === mine) writes.delete(owner);
  });
}

/**
 * Records a call's entry after its answer has gone: reading the answer for the history (parsing one past
 * 64 KB, cutting it) costs milliseconds that the proxy's answer does not wait for. The person's next read
 * of the history on this instance waits for it (historyWritesSettled), so what they just did is there.
 */
export function recordCallAfterAnswer(request: HistoryRequest, result: PlatformCallResult, at: number): void {
  keepHistoryWrite(
    request.viewer,
    new Promise<void>((resolve) => setImmediate(resolve)).then(() => recordCall(request, result, at)),
  );
}

/** Resolves once this process has written every history entry of `owner` it was asked to (recordHistory never throws). */
export async function historyWritesSettled(owner: string | null): Promise<void> {
  const mine = pendingWrites().get(owner ?? "");
  if (mine) await Promise.all([...mine]);
}

/**
 * Resolves once every history write of this process is done, whoever it is for, or at `deadline` (ms since
 * the epoch): the shutdown waits for it before closing the store. Says whether all were done.
 */
export async function allHistoryWritesSettled(deadline = Infinity): Promise<boolean> {
  // A write may be followed by another while waiting (a walk that ends as the first is written).
  while (pendingWrites().size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    const all = Promise.all([...pendingWrites().values()].flatMap((mine) => [...mine]));
    let timer: NodeJS.Timeout | undefined;
    const late = Number.isFinite(left) ? new Promise<void>((resolve) => (timer = setTimeout(resolve, left))) : new Promise<void>(() => undefined);
    await Promise.race([all, late]);
    clearTimeout(timer);
  }
  return true;
}

/**
 * A call's entry, from the platform's answer. Never rejects: a write that rejected would be an unhandled
 * rejection, and would fail the person's next read of the history (historyWritesSettled).
 */
async function recordCall(request: HistoryRequest, result: PlatformCallResult, at: number): Promise<void> {
  try {
    const body = result.body;
    const kept = body === undefined ? { answer: null, answerBytes: result.bytes.byteLength, truncated: false } : keptAnswer(result.rawText, () => body);
    await recordHistory(request, {
      at,
      kind: "call",
      outcome: outcomeOf(result),
      status: result.status,
      durationMs: Math.round(result.durationMs),
      summary: summarizeAnswer(result.status, body, result.retryAfterS ?? null),
      count: findCollection(body, request.method)?.items.length ?? null,
      pages: null,
      ...kept,
    });
  } catch (error) {
    logger.warn({ ...failureOf(error), method: request.method }, "explorer history: the entry was not recorded");
  }
}
