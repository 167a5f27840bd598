/**
 * The index benchmark's timing and table: a timed call (wall and CPU), medians and
 * percentiles, and the rows that print a median with its ratio to the baseline measured in the
 * same run.
 */

import { ms } from "./spawn-runs.js";

/** Runs `fn` once: its value, wall time and CPU time (user + system) in milliseconds. */
export async function timed<T>(
  fn: () => Promise<T> | T,
): Promise<{ value: T; ms: number; cpuMs: number }> {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, ms: ms(start), cpuMs: (used.user + used.system) / 1000 };
}

/** The median of `values` (0 for none). */
export const median = (values: readonly number[]) => percentile(values, 0.5);

/** The `p` quantile of `values` (nearest rank; 0 for none). */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

/** A table row: the median of `runs`, the baseline's time over it, and every run. */
export function row(name: string, runs: readonly number[], refMs: number): void {
  const m = median(runs);
  const each = runs.map((r) => r.toFixed(1)).join(" / ");
  console.log(
    `${name.padEnd(58)}${`${m.toFixed(1)} ms`.padStart(12)}${`${(refMs / m).toFixed(1)}x`.padStart(9)}   ${each}`,
  );
}

/** Like {@link row}, with the ratio the other way: this run's cost over the baseline's. */
export function costRow(name: string, runs: readonly number[], baseMs: number, base = "ref"): void {
  const m = median(runs);
  const each = runs.map((r) => r.toFixed(1)).join(" / ");
  console.log(
    `${name.padEnd(58)}${`${m.toFixed(1)} ms`.padStart(12)}${`${(m / baseMs).toFixed(2)}x ${base}`.padStart(13)}   ${each}`,
  );
}
