/**
 * The environment a pi-runtime child process is started with: which side it is, and when
 * its step clock starts. Shared by the test (which sets them) and the children (which read
 * them); this module has no side effects, so the test may import it.
 */

/** Which SessionManager a pi-runtime child process runs pi over. */
export type Side = "pi" | "ours";

/** The environment variable that names the side of a child process. */
export const SIDE_ENV = "PI_RUNTIME_SIDE";

/** Environment variable with the step clock's start (ms since the epoch), same on both sides. */
export const CLOCK_START_ENV = "PI_RUNTIME_CLOCK_START";

/** The side of this process, from {@link SIDE_ENV}; throws when it is missing or unknown. */
export function currentSide(): Side {
  const side = process.env[SIDE_ENV];
  if (side === "pi" || side === "ours") return side;
  throw new Error(`${SIDE_ENV} must be "pi" or "ours", got ${JSON.stringify(side)}`);
}

/** The step clock's start from {@link CLOCK_START_ENV}; throws when it is not a number. */
export function clockStart(): number {
  const start = Number(process.env[CLOCK_START_ENV]);
  if (!Number.isSafeInteger(start)) throw new Error(`${CLOCK_START_ENV} must be set (ms)`);
  return start;
}

/** The scripted flows a child can run (runtime-flow.ts, shutdown-flow.ts). */
export type FlowName = "main" | "shutdown-writer";
