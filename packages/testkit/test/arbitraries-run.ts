/**
 * fast-check run settings shared by the tests: `FC_RUNS` overrides every run count, `FC_SEED`
 * (with `FC_PATH`) replays a reported failure.
 */

/** The run count: `FC_RUNS` when set, else the test's default. */
export function runs(defaultRuns: number): number {
  const n = Number(process.env.FC_RUNS ?? Number.NaN);
  return Number.isFinite(n) && n > 0 ? n : defaultRuns;
}

/** fast-check parameters for `numRuns` runs, honouring `FC_SEED` and `FC_PATH`. */
export function params(numRuns: number): { numRuns: number; seed?: number; path?: string } {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  return { numRuns, ...(seed ? { seed: Number(seed) } : {}), ...(path ? { path } : {}) };
}
