/**
 * The tasks of a page's main thread in a Chromium trace (`browser.startTracing(page, { categories:
 * MAIN_THREAD_TRACE_CATEGORIES })`, then `stopTracing()`): each task's wall time, and its thread time, the
 * CPU the task itself used. On a machine shared with other work, wall time also counts the time the thread
 * waited for a CPU, which thread time leaves out.
 */
export const MAIN_THREAD_TRACE_CATEGORIES = ["toplevel", "disabled-by-default-devtools.timeline"];

export interface TraceTask {
  /** ms */
  wall: number;
  /** ms of the thread's own CPU time */
  cpu: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The RunTask events of the renderer's main thread (CrRendererMain). */
export function mainThreadTasks(trace: Buffer): TraceTask[] {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mains = new Set(
    traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`),
  );
  return traceEvents
    .filter((e) => e.ph === "X" && e.name === "RunTask" && mains.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ wall: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? 0) / 1000 }));
}
