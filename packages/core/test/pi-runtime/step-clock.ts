/**
 * A step clock for the child processes of the pi-runtime test.
 *
 * Both sides must write the same timestamps in the same places, or normalising them by first
 * appearance (t1, t2, …) would give different numbers whenever two calls happened to fall in
 * the same millisecond on one side only. Real time depends on machine speed, and our manager
 * reads the clock a different number of times than pi's, so a clock that advances per call
 * would not line up either. So the wall clock stands still and moves only when the script
 * says so (one tick per step): every timestamp taken during a step is the same on both sides.
 *
 * Only `Date` is replaced. Timers and `performance.now()` keep running (durations such as
 * `durationMs` are normalised instead), so nothing that waits on a timer can hang.
 */

const RealDate = Date;
let current = RealDate.now();

/**
 * Replaces the global `Date` by one whose "now" is the step clock, starting at `startMs`.
 * `new Date(x)`, `Date.parse`, `Date.UTC` and `instanceof Date` behave as before. Must run
 * before pi is imported, in case a module keeps a reference to `Date.now`.
 */
export function installStepClock(startMs: number): void {
  current = startMs;
  const now = (): number => current;
  globalThis.Date = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
    },
    // `Date()` called as a function returns the current time as a string.
    apply() {
      return new RealDate(now()).toString();
    },
    get(target, prop, receiver) {
      if (prop === "now") return now;
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Moves the step clock forward by `ms` (default one second) and returns the new time. */
export function tickClock(ms = 1000): number {
  current += ms;
  return current;
}
