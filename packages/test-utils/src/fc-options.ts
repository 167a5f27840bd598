/**
 * fast-check run settings from the environment, the same in every property test: `FC_RUNS`
 * scales every run count (a quick `FC_RUNS=10` or a deep `FC_RUNS=10000`), and `FC_SEED` with
 * `FC_PATH` replays a failure. fast-check prints both on a failure (`{ seed: …, path: "…" }`),
 * so copying them into the environment reruns exactly the failing case.
 */

/** The parameters a property passes to `fc.assert`. */
export interface FcOptions {
  /** How many cases to run. */
  readonly numRuns: number;
  /** The seed to replay (`FC_SEED`), absent for a fresh random one. */
  readonly seed?: number;
  /** The shrink path to replay (`FC_PATH`), meaningful together with the seed. */
  readonly path?: string;
}

/** The run count: `FC_RUNS` when it is a positive integer, else the test's own default. */
export function fcRuns(defaultRuns: number): number {
  const runs = Number(process.env.FC_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

/**
 * `fc.assert` parameters for a property whose default run count is `defaultRuns`. A set
 * `FC_SEED` that is not an integer throws, so a mistyped replay cannot run a random case and
 * pass unnoticed.
 */
export function fcOptions(defaultRuns: number): FcOptions {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  if (seed !== undefined && seed !== "" && !Number.isInteger(Number(seed))) {
    throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(seed)}`);
  }
  return {
    numRuns: fcRuns(defaultRuns),
    ...(seed !== undefined && seed !== "" ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}
