import type { CompareAnswer, CompareRequest, CompareSide } from "@/lib/explorer/compare";

export type CompareState = { status: "idle" } | { status: "running" } | { status: "done"; answer: CompareAnswer };

/** What the runner needs of a Web Worker (diff.worker.ts). */
export interface CompareWorker {
  onmessage: ((event: MessageEvent<CompareAnswer>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  onmessageerror: ((event: MessageEvent) => void) | null;
  postMessage(request: CompareRequest): void;
  terminate(): void;
}

/**
 * The compares of the history page, run in a worker made on the first compare and ended with the page. A
 * compare asked while another runs supersedes it, and closing abandons it: only the newest run's answer is
 * shown. A worker that fails (a script error, an answer that cannot be read) is ended and forgotten, so the
 * next compare starts a fresh one rather than waiting on a broken worker; the run it was doing, unless
 * superseded or closed, ends with the failure said.
 */
export class CompareRunner {
  private worker: CompareWorker | null = null;
  private run = 0;
  /** The run waiting for its answer, if any. */
  private waiting: number | null = null;

  constructor(
    private readonly create: () => CompareWorker,
    private readonly show: (state: CompareState) => void,
  ) {}

  compare(left: CompareSide, right: CompareSide): void {
    const worker = this.worker ?? this.start();
    this.run += 1;
    this.waiting = this.run;
    this.show({ status: "running" });
    worker.postMessage({ run: this.run, left, right });
  }

  close(): void {
    this.run += 1;
    this.waiting = null;
    this.show({ status: "idle" });
  }

  dispose(): void {
    this.end();
    this.waiting = null;
  }

  private start(): CompareWorker {
    const worker = this.create();
    worker.onmessage = (event) => {
      if (event.data.run !== this.run || this.waiting !== this.run) return;
      this.waiting = null;
      this.show({ status: "done", answer: event.data });
    };
    worker.onerror = (event) => this.fail(worker, event.message || "The compare worker failed.");
    worker.onmessageerror = () => this.fail(worker, "The compare worker's answer could not be read.");
    this.worker = worker;
    return worker;
  }

  private fail(worker: CompareWorker, message: string): void {
    if (this.worker === worker) this.end();
    else worker.terminate();
    if (this.waiting === null) return;
    const run = this.waiting;
    this.waiting = null;
    this.show({ status: "done", answer: { run, ok: false, message: `${message} Compare again to retry.` } });
  }

  private end(): void {
    this.worker?.terminate();
    this.worker = null;
  }
}
