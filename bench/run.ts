/**
 * `npm run bench`: runs every benchmark suite in order, each printing its own figures. Not part of
 * `npm test`. `npm run bench -- <text>` runs only the suites whose name contains <text>;
 * `npm run bench -- --quick` runs every suite small and short (CI does, so a suite that breaks fails CI).
 * Record the full figures in docs/benchmarks.md.
 */
import { QUICK } from "./mode";
import type { BenchSuite } from "./suite";
import { emulatorUsersListSuite } from "./suites/emulator-users-list";
import { emulatorJournalSuite } from "./suites/emulator-journal";
import { emulatorSocketModeSuite } from "./suites/emulator-socket-mode";
import { consoleFetchAllSuite } from "./suites/console-fetch-all";
import { consoleFetchAllMainThreadSuite } from "./suites/console-fetch-all-main-thread";
import { consoleWalksHealthSuite } from "./suites/console-walks-health";
import { consoleFirstLoadSuite } from "./suites/console-first-load";
import { consolePickerSuite } from "./suites/console-picker";
import { consoleProxySuite } from "./suites/console-proxy";
import { consoleEventViewersSuite } from "./suites/console-event-viewers";
import { consoleScrollSuite } from "./suites/console-scroll";
import { consoleWorkspaceScrollSuite } from "./suites/console-workspace-scroll";
import { consoleSoakSuite } from "./suites/console-soak";
import { consoleHostedSoakSuite } from "./suites/console-hosted-soak";
import { consoleRefreshDrainSuite } from "./suites/console-refresh-drain";
import { consoleDashboardSuite } from "./suites/console-dashboard";
import { consoleInstallationsAtScaleSuite } from "./suites/console-installations-at-scale";
import { consoleTokenApiSuite } from "./suites/console-token-api";
import { consoleTokenApiHealthSuite } from "./suites/console-token-api-health";
import { consoleHostileCookiesSuite } from "./suites/console-hostile-cookies";
import { consoleHistorySuite } from "./suites/console-history";

/** In order; each suite is a module in bench/suites/. */
const SUITES: BenchSuite[] = [
  emulatorUsersListSuite,
  emulatorJournalSuite,
  emulatorSocketModeSuite,
  // The console's suites share one production build and server (bench/suites/console-server.ts); the last stops it.
  consoleProxySuite,
  consoleFetchAllSuite,
  consoleFetchAllMainThreadSuite,
  consoleWalksHealthSuite,
  consoleFirstLoadSuite,
  consolePickerSuite,
  consoleEventViewersSuite,
  consoleDashboardSuite,
  // A console of its own on PostgreSQL, seeded with 100,000 installations (issue 43), from the same build.
  consoleInstallationsAtScaleSuite,
  consoleTokenApiSuite,
  consoleTokenApiHealthSuite,
  consoleHistorySuite,
  // Hostile cases: requests built to cost the server, while a well-behaved client's are timed.
  consoleHostileCookiesSuite,
  consoleSoakSuite,
  // Servers of its own (two instances, PostgreSQL, Redis, the standalone emulator), from the same build.
  consoleHostedSoakSuite,
  consoleRefreshDrainSuite,
  consoleScrollSuite,
  consoleWorkspaceScrollSuite,
];

async function main(): Promise<void> {
  const filter = process.argv
    .slice(2)
    .filter((arg) => arg !== "--quick")
    .join(" ")
    .trim();
  const selected = SUITES.filter((s) => !filter || s.name.includes(filter));
  if (selected.length === 0) {
    console.error(`No suite matches "${filter}". Suites: ${SUITES.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${new Date().toISOString()}`);
  if (QUICK) console.log("quick mode: small workspaces and few rounds, to check that every suite runs; the figures are not judged");
  for (const suite of selected) {
    console.log(`\n## ${suite.name}\n`);
    const started = performance.now();
    await suite.run();
    console.log(`\n(${suite.name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
