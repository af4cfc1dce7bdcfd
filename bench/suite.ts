/** A benchmark suite: bench/run.ts runs each in turn; `run` prints its own figures. */
export interface BenchSuite {
  name: string;
  run(): Promise<void>;
}
