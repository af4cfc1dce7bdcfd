import { describe, expect, it } from "vitest";
import { CompareRunner, type CompareState, type CompareWorker } from "@/components/history/compare-runner";
import type { CompareAnswer, CompareRequest } from "@/lib/explorer/compare";

/** A stand-in for the browser's Worker (vitest runs on Node): records what it was sent, answers or fails when told. */
class FakeWorker implements CompareWorker {
  onmessage: ((event: MessageEvent<CompareAnswer>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onmessageerror: ((event: MessageEvent) => void) | null = null;
  sent: CompareRequest[] = [];
  terminated = false;
  postMessage(request: CompareRequest) {
    if (this.terminated) throw new Error("posted to a terminated worker");
    this.sent.push(request);
  }
  terminate() {
    this.terminated = true;
  }
  answer(run: number) {
    this.onmessage?.({ data: { run, ok: false, message: `answer of run ${run}` } } as MessageEvent<CompareAnswer>);
  }
  crash(message: string) {
    this.onerror?.({ message } as ErrorEvent);
  }
}

function runner() {
  const workers: FakeWorker[] = [];
  const states: CompareState[] = [];
  const compares = new CompareRunner(
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
    (state) => states.push(state),
  );
  return { compares, workers, states, last: () => states.at(-1) };
}

const side = (entryId: string) => ({ entryId });

describe("the history page's compares", () => {
  it("end a run whose worker failed with the failure said, and start a fresh worker for the next", () => {
    const { compares, workers, last } = runner();
    compares.compare(side("h1"), side("h2"));
    expect(last()).toEqual({ status: "running" });
    workers[0]!.crash("out of memory");
    expect(last()).toMatchObject({ status: "done", answer: { ok: false, message: expect.stringContaining("out of memory") } });
    expect(workers[0]!.terminated).toBe(true);

    compares.compare(side("h1"), side("h3"));
    expect(workers).toHaveLength(2);
    expect(last()).toEqual({ status: "running" });
    workers[1]!.answer(workers[1]!.sent[0]!.run);
    expect(last()).toMatchObject({ status: "done", answer: { message: `answer of run ${workers[1]!.sent[0]!.run}` } });
  });

  it("stay closed when the worker of a closed compare fails, and show only the newest run's answer", () => {
    const { compares, workers, last, states } = runner();
    compares.compare(side("h1"), side("h2"));
    compares.close();
    workers[0]!.crash("late failure");
    expect(last()).toEqual({ status: "idle" });
    expect(workers[0]!.terminated).toBe(true);

    compares.compare(side("h1"), side("h2"));
    compares.compare(side("h1"), side("h3"));
    const [older, newer] = workers[1]!.sent;
    workers[1]!.answer(older!.run);
    expect(last()).toEqual({ status: "running" });
    workers[1]!.answer(newer!.run);
    expect(last()).toMatchObject({ status: "done", answer: { message: `answer of run ${newer!.run}` } });
    // A worker's unreadable answer ends the run too.
    compares.compare(side("h4"), side("h5"));
    workers[1]!.onmessageerror?.({} as MessageEvent);
    expect(last()).toMatchObject({ status: "done", answer: { ok: false, message: expect.stringContaining("could not be read") } });
    expect(workers[1]!.terminated).toBe(true);
    expect(states.filter((s) => s.status === "done")).toHaveLength(2);
  });

  it("end the worker with the page", () => {
    const { compares, workers } = runner();
    compares.compare(side("h1"), side("h2"));
    compares.dispose();
    expect(workers[0]!.terminated).toBe(true);
  });
});
