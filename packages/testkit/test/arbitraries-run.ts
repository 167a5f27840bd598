/**
 * fast-check run settings under the names the testkit's suites use: `runs` and `params` are the
 * workspace's one reading of `FC_RUNS` / `FC_SEED` / `FC_PATH` (test-utils' fcRuns/fcOptions).
 */
export { fcOptions as params, fcRuns as runs } from "@pi-sessions/test-utils";
