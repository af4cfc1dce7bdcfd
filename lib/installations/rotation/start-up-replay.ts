import "server-only";
import { logger } from "@/lib/log";
import { processSingleton } from "@/lib/process-singleton";
import { replayAtStart } from "./replay";
import { getRotationRuntime } from "./runtime";

/** The wait before the first retry, doubled after each failed one up to the last: a store that comes up late is found within that. */
const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 30_000;

interface StartUpReplayState {
  /** The first attempt (start-up awaits it), made once per process. */
  first: Promise<boolean> | null;
  /** The retries after a first attempt that could not reach the store. */
  retrying: Promise<void> | null;
  stopped: boolean;
  timer: NodeJS.Timeout | null;
  wake: (() => void) | null;
}

const state = () => processSingleton("startUpReplay", (): StartUpReplayState => ({ first: null, retrying: null, stopped: false, timer: null, wake: null }));

/** One attempt: the store opened and every unsettled intent replayed (replay.ts); false when the store was out of reach. */
async function attempt(): Promise<boolean> {
  const runtime = getRotationRuntime();
  try {
    return await replayAtStart(await runtime.store(), runtime);
  } catch (error) {
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "replaying unsettled refreshes at start: the store is out of reach, trying again",
    );
    return false;
  }
}

/** Waits `ms`, or less if stopStartUpReplay() is called meanwhile. */
function pause(s: StartUpReplayState, ms: number): Promise<void> {
  return new Promise((resolve) => {
    s.wake = resolve;
    s.timer = setTimeout(resolve, ms);
    s.timer.unref();
  });
}

async function retryUntilDone(s: StartUpReplayState): Promise<void> {
  for (let waitMs = FIRST_RETRY_MS; !s.stopped; waitMs = Math.min(waitMs * 2, LONGEST_RETRY_MS)) {
    await pause(s, waitMs);
    if (s.stopped) return;
    if (await attempt()) {
      logger.info("unsettled refreshes replayed once the store was reached");
      return;
    }
  }
}

/**
 * What a server does at its start (instrumentation-node.ts): the refreshes a process that stopped mid-refresh
 * left unsettled are replayed, once per process. Start-up awaits the first attempt only, so a store out of
 * reach (PostgreSQL not up yet) never holds the server back: the attempt is then repeated in the background,
 * waits doubling up to LONGEST_RETRY_MS, until one reaches the store or graceful shutdown stops it
 * (stopStartUpReplay). Answers whether the first attempt replayed. Until then each refresh still replays its
 * own token's intents under its lock (refresh.ts); what waits is the replay of tokens nobody refreshes.
 */
export function replayUnsettledRefreshes(): Promise<boolean> {
  const s = state();
  if (!s.first) {
    s.first = attempt();
    void s.first.then((replayed) => {
      if (!replayed && !s.stopped) s.retrying = retryUntilDone(s);
    });
  }
  return s.first;
}

/** Graceful shutdown (lib/ops/shutdown.ts): no further attempt; one under way finishes before the store closes. */
export async function stopStartUpReplay(): Promise<void> {
  const s = state();
  s.stopped = true;
  if (s.timer) clearTimeout(s.timer);
  s.wake?.();
  await s.first?.catch(() => false);
  await s.retrying?.catch(() => {});
}
