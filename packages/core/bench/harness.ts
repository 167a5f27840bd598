/**
 * A small timing harness on `process.hrtime.bigint()` (no dependencies, no `--expose-gc`).
 *
 * A measurement runs untimed warm-up samples (a count, and optionally a time), then timed samples until the samples add up to
 * `minMs` (and at least `minSamples` were taken) or `maxSamples` is reached. Each sample times
 * `batch` consecutive calls and records the time per call, so operations far below the
 * timer's resolution (a map lookup) are measured in batches while slow ones (a 60 ms context
 * build) are timed one call at a time. The median is the headline figure; the minimum is
 * reported next to it as the "best case without GC pauses".
 */

/** Options of one measurement. */
export interface MeasureOptions<S> {
  /** Untimed samples run first (default 1)... */
  warmupSamples?: number;
  /** ...continuing until they add up to this many ms (default 0), to let the JIT settle. */
  warmupMs?: number;
  /** Keep sampling until the timed samples add up to this many ms (default 200)... */
  minMs?: number;
  /** ...but take at least this many samples (default 3)... */
  minSamples?: number;
  /** ...and at most this many (default 500). */
  maxSamples?: number;
  /**
   * Calls per sample, or `"auto"`: calibrate so that one sample takes about `targetSampleMs`
   * (default 1). The time per call is the sample's time divided by the batch.
   */
  batch?: number | "auto";
  /** Sample length aimed at by `batch: "auto"`, in ms (default 1). */
  targetSampleMs?: number;
  /**
   * Runs untimed before every sample (warm-up ones included); its result is passed to `fn`.
   * Use it to give each sample a fresh subject, e.g. a newly opened manager.
   */
  setup?: () => S;
}

/** Sampling options without a subject: what {@link measureRounds} takes. */
export type SampleBudget = Omit<MeasureOptions<unknown>, "setup">;

/** The outcome of one measurement. Times are per call, in nanoseconds. */
export interface Measurement {
  readonly medianNs: number;
  readonly minNs: number;
  readonly meanNs: number;
  readonly samples: number;
  /** Timed calls in all (samples × batch). */
  readonly calls: number;
  /** Calls per sample. */
  readonly batch: number;
  /** Wall time of the timed samples, in ms. */
  readonly totalMs: number;
}

/** Results are stored here so the engine cannot drop a call whose value is never used. */
export let sink: unknown;

const now = (): bigint => process.hrtime.bigint();

function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = n >> 1;
  return n % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Times `batch` calls of `fn`; returns nanoseconds for the whole batch. */
function runSample<S>(
  fn: (subject: S, i: number) => unknown,
  subject: S,
  batch: number,
  start: number,
): number {
  const t0 = now();
  let last: unknown;
  for (let i = 0; i < batch; i++) last = fn(subject, start + i);
  const t1 = now();
  sink = last;
  return Number(t1 - t0);
}

/** Calls per sample so that one sample takes about `targetMs` (at least 1). */
function calibrate<S>(
  fn: (subject: S, i: number) => unknown,
  subject: S,
  targetMs: number,
): number {
  let batch = 1;
  for (;;) {
    const ns = runSample(fn, subject, batch, 0);
    if (ns >= targetMs * 1e6 || batch >= 1 << 20) {
      return Math.max(1, Math.round((batch * targetMs * 1e6) / Math.max(ns, 1)));
    }
    batch *= ns < targetMs * 1e5 ? 10 : 2;
  }
}

/**
 * Measures `fn`. It receives the subject made by `setup` (or `undefined`) and a running call
 * index, handy for cycling through prepared inputs.
 */
export function measure<S = undefined>(
  fn: (subject: S, i: number) => unknown,
  options: MeasureOptions<S> = {},
): Measurement {
  const minMs = options.minMs ?? 200;
  const minSamples = options.minSamples ?? 3;
  const maxSamples = Math.max(options.maxSamples ?? 500, 1);
  const setup = options.setup ?? ((): S => undefined as S);
  let index = 0;

  let batch: number;
  if (options.batch === "auto") {
    batch = calibrate(fn, setup(), options.targetSampleMs ?? 1);
    index += batch;
  } else {
    batch = Math.max(1, options.batch ?? 1);
  }

  const warmupSamples = options.warmupSamples ?? 1;
  const warmupNs = (options.warmupMs ?? 0) * 1e6;
  for (let w = 0, spent = 0; w < warmupSamples || spent < warmupNs; w++) {
    spent += runSample(fn, setup(), batch, index);
    index += batch;
  }

  const perCall: number[] = [];
  let totalNs = 0;
  while (perCall.length < maxSamples && (perCall.length < minSamples || totalNs < minMs * 1e6)) {
    const subject = setup();
    const ns = runSample(fn, subject, batch, index);
    index += batch;
    totalNs += ns;
    perCall.push(ns / batch);
  }

  return summarize(perCall, batch);
}

function summarize(perCall: readonly number[], batch: number): Measurement {
  const sorted = [...perCall].sort((a, b) => a - b);
  const totalNs = perCall.reduce((sum, ns) => sum + ns * batch, 0);
  return {
    medianNs: median(sorted),
    minNs: sorted[0] ?? Number.NaN,
    meanNs: totalNs / (perCall.length * batch),
    samples: perCall.length,
    calls: perCall.length * batch,
    batch,
    totalMs: totalNs / 1e6,
  };
}

/**
 * Measures several functions in rounds: every round takes one sample of each (`batch` calls),
 * starting one further along each time. On a shared machine, load bursts and the GC debt one
 * function leaves to the next then fall on all of them alike, so their ratios stay fair.
 * Rounds stop at `maxSamples`, or once there were `minSamples` and the slowest function's
 * samples add up to `minMs`. `fn` gets a running call index, as in {@link measure}.
 */
export function measureRounds(
  fns: readonly ((_: undefined, i: number) => unknown)[],
  options: SampleBudget = {},
): Measurement[] {
  const minMs = options.minMs ?? 200;
  const minSamples = options.minSamples ?? 3;
  const maxSamples = Math.max(options.maxSamples ?? 500, 1);
  const batch = typeof options.batch === "number" ? Math.max(1, options.batch) : 1;
  const n = fns.length;
  const index = fns.map(() => 0);
  const run = (k: number): number => {
    const ns = runSample(
      fns[k] as (_: undefined, i: number) => unknown,
      undefined,
      batch,
      index[k] as number,
    );
    index[k] = (index[k] as number) + batch;
    return ns;
  };
  const warmupNs = (options.warmupMs ?? 0) * 1e6;
  for (let w = 0, spent = 0; w < (options.warmupSamples ?? 1) || spent < warmupNs; w++) {
    for (let k = 0; k < n; k++) spent += run((k + w) % n) / n;
  }
  const perCall: number[][] = fns.map(() => []);
  const totals = fns.map(() => 0);
  // Every function has as many samples as there were rounds; stop when the slowest is done.
  const more = (round: number): boolean => round < minSamples || Math.max(...totals) < minMs * 1e6;
  for (let round = 0; round < maxSamples && more(round); round++) {
    for (let j = 0; j < n; j++) {
      const k = (j + round) % n;
      const ns = run(k);
      (perCall[k] as number[]).push(ns / batch);
      totals[k] = (totals[k] as number) + ns;
    }
  }
  return perCall.map((p) => summarize(p, batch));
}

/** Times one call of `fn` (for one-off steps such as generating a session), in ms. */
export function timeOnce<T>(fn: () => T): { value: T; ms: number } {
  const t0 = now();
  const value = fn();
  return { value, ms: Number(now() - t0) / 1e6 };
}

/** Formats nanoseconds with a unit that keeps 3 significant digits. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return "—";
  if (ns < 1e3) return `${ns.toPrecision(3)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** Formats a ratio as `0.123×` (3 significant digits). */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return "—";
  return `${ratio < 0.001 ? ratio.toExponential(1) : ratio.toPrecision(3)}×`;
}
