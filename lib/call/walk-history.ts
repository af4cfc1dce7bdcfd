import "server-only";
import { findCollection } from "@/lib/explorer/items";
import { countOfList } from "@/lib/explorer/answer-summary";
import { recordHistory, type HistoryRequest } from "./call-history";
import { HISTORY_ANSWER_BYTES, maskValue } from "./history-answer";
import type { WalkStep } from "./fetch-all";

/**
 * A Fetch all as the history keeps it: one entry when the walk is over (done, failed or cancelled), its
 * answer the items walked, as `{"<field>": [...]}`, kept while they fit in 64 KB (the rest counted, not
 * kept: the entry says truncated). Items past the room are not serialized, so a 100,000-item walk costs
 * the history its first 64 KB only.
 */
export class WalkHistory {
  private field = "items";
  private readonly kept: string[] = [];
  private keptBytes = 0;
  private full = false;
  private pages = 0;
  private total = 0;
  private bytes = 0;
  private status = 200;
  private ending: { outcome: string; summary: string } | null = null;
  private observed = false;
  private recorded = false;

  constructor(
    private readonly request: HistoryRequest,
    private readonly startedAt: number,
  ) {}

  /** Follows the walk; its last step (done, failed, paused) records it, before the browser reads that line. */
  observe(step: WalkStep): Promise<void> | void {
    const { event, upstream } = step;
    this.observed = true;
    if (event.type === "page") {
      this.pages = event.page;
      this.total = event.total;
      if (upstream) {
        this.status = upstream.status;
        this.bytes += Buffer.byteLength(upstream.rawText, "utf8");
      }
      const collection = findCollection(event.response, this.request.method);
      if (collection) {
        this.field = collection.field;
        this.keep(collection.items);
      }
    } else if (event.type === "done") {
      this.ending = { outcome: "ok", summary: `Fetch all done${event.capped ? " at the page cap" : ""}` };
      return this.finish(Date.now());
    } else if (event.type === "resume") {
      // Not done: the browser continues from the cursor in a new request, which is an entry of its own.
      this.ending = { outcome: "paused", summary: "Fetch all paused for a refreshed token, continued in a new request" };
      return this.finish(Date.now());
    } else if (event.type === "error") {
      this.ending = { outcome: event.error, summary: `Fetch all failed · ${event.error}` };
      return this.finish(Date.now());
    }
  }

  private keep(items: unknown[]): void {
    for (const item of items) {
      if (this.full) return;
      const text = JSON.stringify(maskValue(item)) ?? "null";
      const size = Buffer.byteLength(text, "utf8") + 1;
      // Room for `{"<field>":[` and `]}` too.
      if (this.keptBytes + size + this.field.length + 8 > HISTORY_ANSWER_BYTES) {
        this.full = true;
        return;
      }
      this.kept.push(text);
      this.keptBytes += size;
    }
  }

  /** Records the walk once it is over (`now`: when it ended); `failure` the error code of a walk that failed before its first page. */
  async finish(now: number, failure?: string): Promise<void> {
    // A walk that ended before its first page without a failure (the browser left) did nothing worth keeping.
    if (this.recorded || (!this.observed && failure === undefined)) return;
    this.recorded = true;
    const ending =
      failure !== undefined
        ? { outcome: failure, summary: `Fetch all failed · ${failure}` }
        : (this.ending ?? { outcome: "cancelled", summary: "Fetch all cancelled" });
    await recordHistory(this.request, {
      at: this.startedAt,
      kind: "all",
      outcome: ending.outcome,
      status: ending.outcome === "ok" || ending.outcome === "cancelled" || ending.outcome === "paused" ? 200 : this.status,
      durationMs: Math.max(0, now - this.startedAt),
      summary: `${ending.summary} · ${countOfList(this.total, this.field)} in ${this.pages} ${this.pages === 1 ? "page" : "pages"}`,
      count: this.total,
      pages: this.pages,
      answer: this.pages > 0 ? `{${JSON.stringify(this.field)}:[${this.kept.join(",")}]}` : null,
      answerBytes: this.bytes,
      truncated: this.full,
    });
  }
}
