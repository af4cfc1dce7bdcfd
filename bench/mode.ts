/**
 * How much a bench run measures. `npm run bench` measures in full (the figures in docs/benchmarks.md);
 * `npm run bench -- --quick` (or BENCH_QUICK=1) runs every suite once on a small workspace with few
 * rounds, a few seconds each, so CI notices a suite that no longer runs. Quick figures are printed but
 * not judged.
 */
export const QUICK = process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";

/**
 * A suite's setting: the environment variable `envName` when set (a positive number), else the full or
 * the quick default.
 */
export function benchSetting(envName: string, full: number, quick: number): number {
  const raw = process.env[envName];
  if (raw !== undefined && raw !== "") {
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${envName}=${raw}: expected a positive number`);
    return value;
  }
  return QUICK ? quick : full;
}
