/**
 * An open-loop load at a stated rate, for latency (issue 43, the token API beside /api/health). autocannon's
 * `overallRate` is not one: each connection sends its whole second's budget back to back and then waits for
 * the next second, so the server sees bursts at full speed and the latency measured is that of saturation.
 * Here each of `backends` clients has one keep-alive connection of its own and sends at random moments
 * (exponential gaps: independent backends each doing its own work), together `ratePerS` requests a second,
 * whether or not its earlier answers came. A request due while its backend's connection is still busy waits
 * for it, and that wait counts: latency runs from the moment a request was due to the end of its answer
 * (no coordinated omission). The generator's own lateness (due to sent) is reported beside it.
 */
import { Agent, request as httpRequest } from "node:http";
import { percentile } from "./console-server";

export interface OpenLoopOptions {
  origin: string;
  backends: number;
  ratePerS: number;
  seconds: number;
  /** The request a backend sends (a path and its headers), asked anew for each. */
  request: (backend: number) => { path: string; headers?: Record<string, string> };
}

export interface OpenLoopResult {
  /** Requests answered (any status) per second over the run. */
  rps: number;
  answers: number;
  /** Answers other than 2xx, and requests that got no answer. */
  non2xx: number;
  errors: number;
  /** Sorted, in milliseconds, from the moment each request was due. */
  latencies: number[];
  /** How late the generator sent, p99 (ms): its own share of the latencies. */
  lateP99: number;
}

const sorted = (values: number[]) => values.sort((a, b) => a - b);

export async function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const url = new URL(options.origin);
  const meanGapMs = (options.backends * 1000) / options.ratePerS;
  const latencies: number[] = [];
  const late: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + options.seconds * 1000;

  const backend = (index: number) =>
    new Promise<void>((resolveBackend) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const inFlight = new Set<Promise<void>>();
      const send = (due: number) => {
        const sentAt = performance.now();
        late.push(sentAt - due);
        const { path, headers } = options.request(index);
        const answered = new Promise<void>((resolve) => {
          const req = httpRequest({ host: url.hostname, port: url.port, path, headers, agent }, (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) non2xx++;
              latencies.push(performance.now() - due);
              resolve();
            });
          });
          req.on("error", () => {
            errors++;
            resolve();
          });
          req.end();
        });
        inFlight.add(answered);
        void answered.then(() => inFlight.delete(answered));
      };
      // The first moment at random within the first gap, so the backends do not start together.
      let due = started + -Math.log(1 - Math.random()) * meanGapMs;
      const next = () => {
        if (due >= end) {
          void Promise.all(inFlight).then(() => {
            agent.destroy();
            resolveBackend();
          });
          return;
        }
        setTimeout(
          () => {
            // Every request due by now goes (a timer that fired late sends what it owes, each timed from its own due moment).
            while (due < end && due <= performance.now()) {
              send(due);
              due += -Math.log(1 - Math.random()) * meanGapMs;
            }
            next();
          },
          Math.max(0, due - performance.now()),
        );
      };
      next();
    });

  await Promise.all(Array.from({ length: options.backends }, (_, i) => backend(i)));
  const answers = latencies.length;
  return { rps: answers / options.seconds, answers, non2xx, errors, latencies: sorted(latencies), lateP99: percentile(sorted(late), 99) };
}
