/**
 * (f) Soak: the hosted dashboard under a steady crowd. 200 sessions, each installed through the OAuth flow
 * into a workspace of its own, use one console instance (with the embedded emulator) for 60 s: Web API
 * calls through /api/call with the bot and the user token, Fetch all, webhook sends, mentions that come back
 * as events, and one live /api/events/stream viewer each. Halfway through, the emulator's clock moves 13
 * hours on, so every token expires upstream. Goals: no error but deliberate 429s, exactly one refresh
 * grant per token kind per installation, and the server's memory back within 10% of its start after.
 */
import { expectJson } from "../http";
import { benchSetting } from "../mode";
import type { BenchSuite } from "../suite";
import { admin, ORIGIN, serverRssBytes, startConsole } from "./console-server";
import { CLOCK_JUMP_S, CONSOLE_MIX, installSessions, MEMBERS, printCrowdFigures, printMemory, SoakCrowd, type PlatformTokens } from "./soak-crowd";

const SESSIONS = benchSetting("BENCH_SOAK_SESSIONS", 200, 20);
const SECONDS = benchSetting("BENCH_SOAK_SECONDS", 60, 8);
const WARMUP_SECONDS = benchSetting("BENCH_SOAK_WARMUP_SECONDS", 10, 2);
/** How long the idle server is watched after the run for its memory to come back. */
const SETTLE_MAX_S = benchSetting("BENCH_SOAK_SETTLE_S", 60, 10);

export const consoleSoakSuite: BenchSuite = {
  name: `console: soak (${SESSIONS} sessions for ${SECONDS} s, tokens expiring halfway)`,
  async run() {
    await startConsole();
    await admin("reset", { users: MEMBERS, workspaces: SESSIONS });
    const { workspaces } = (await admin("state")) as { workspaces: Array<{ id: string }> };
    const crowd = new SoakCrowd({ origin: ORIGIN, mix: CONSOLE_MIX });
    const installing = performance.now();
    const sessions = await installSessions(workspaces.slice(0, SESSIONS).map((w) => w.id));
    console.log(
      `  ${sessions.length} sessions installed through the OAuth flow, each into its own workspace, in ${((performance.now() - installing) / 1000).toFixed(1)} s`,
    );

    const result = await crowd.soak(sessions, {
      warmupS: WARMUP_SECONDS,
      seconds: SECONDS,
      settleMaxS: SETTLE_MAX_S,
      memory: [serverRssBytes],
      moveClock: () => admin("clock", { advance_s: CLOCK_JUMP_S }),
      platformState: async () =>
        expectJson<PlatformTokens>(await fetch(`${ORIGIN}/emulator/admin/state`, { headers: { origin: ORIGIN } }), "emulator admin/state"),
    });
    printCrowdFigures(result);
    printMemory("server memory", result.starts[0]!, result.peaks[0]!, result.settling);
    await admin("reset", { users: MEMBERS, workspaces: 1 });
  },
};
