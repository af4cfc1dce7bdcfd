import { processSingleton } from "@/lib/process-singleton";
import type { PlatformTransport } from "./call-method";

/** Calls waiting for their turn, oldest first; one is started per event-loop turn (setImmediate, not a timer). */
interface CallQueue {
  waiting: Array<() => void>;
  scheduled: boolean;
}

function startNext(queue: CallQueue): void {
  queue.scheduled = false;
  queue.waiting.shift()?.();
  if (queue.waiting.length > 0) {
    queue.scheduled = true;
    setImmediate(startNext, queue);
  }
}

/**
 * A transport that answers in this process (the embedded emulator's fetch). Such an answer never waits on
 * I/O: a walk of thousands of one-item pages would go from one call to the next without the event loop
 * ever reaching another request, and 20 walks held /api/health for 27 s (issue 23, item 4). So every
 * in-process call waits for a turn of the event loop of its own: one call is started per turn, and the
 * I/O that is waiting (another request, another page's socket) is served between any two of them. Calls
 * take turns in the order they came, whichever walk or route makes them; an answer that waits for
 * something (an emulated latency) does not hold the others. One queue for the whole process, shared by
 * every route bundle.
 */
export function inProcessTransport(answer: (request: Request) => Promise<Response>): PlatformTransport {
  const queue = processSingleton<CallQueue>("inProcessCallQueue", () => ({ waiting: [], scheduled: false }));
  return (request) =>
    new Promise<Response>((resolve, reject) => {
      queue.waiting.push(() => {
        try {
          answer(request).then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      });
      if (!queue.scheduled) {
        queue.scheduled = true;
        setImmediate(startNext, queue);
      }
    });
}
