/**
 * Token and cost sums. Every value here is a fresh immutable object: adding a
 * record returns new sums and never touches the old ones, so projection snapshots can share them.
 */

/** Summed `Usage.cost` fields (pi's cost object, SPEC §3.5). */
export interface UsageCostTotals {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly total: number;
  /**
   * True when at least one record was summed and every summed record said its `total` came
   * from the provider (the reference's `combineUsage` rule: a sum is provider-reported only
   * when every part is).
   */
  readonly totalFromProvider: boolean;
}

/** Summed `Usage` token fields and cost, plus how many usage records were added. */
export interface UsageSums {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** Part of `cacheWrite` written with 1-hour retention (0 when never reported). */
  readonly cacheWrite1h: number;
  /** Reasoning tokens, already inside `output` (0 when never reported). */
  readonly reasoning: number;
  /** Recorded `totalTokens`, or for a record without one its four counts' sum. */
  readonly totalTokens: number;
  readonly cost: UsageCostTotals;
  /** Number of usage records summed. */
  readonly records: number;
}

/** Sums with a per-model breakdown keyed `provider/model` (see {@link usageRecordOf}). */
export interface UsageTotals extends UsageSums {
  /** Per `provider/model` key; keys appear in the order their first record was added. */
  readonly byModel: Readonly<Record<string, UsageSums>>;
}

/**
 * One usage record normalised to numbers (garbage and negative numbers count as 0, a missing
 * `totalTokens` as the sum of the four counts; see {@link normalizeUsage}), without the record count.
 */
export type NormalizedUsage = Omit<UsageSums, "records">;

const ZERO_COST: UsageCostTotals = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  total: 0,
  totalFromProvider: false,
});

const ZERO_SUMS: UsageSums = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  cacheWrite1h: 0,
  reasoning: 0,
  totalTokens: 0,
  cost: ZERO_COST,
  records: 0,
});

const ZERO_TOTALS: UsageTotals = Object.freeze({ ...ZERO_SUMS, byModel: Object.freeze({}) });

/** Sums of nothing. */
export function emptyUsageSums(): UsageSums {
  return ZERO_SUMS;
}

/** Totals of nothing (no records, empty `byModel`). */
export function emptyUsageTotals(): UsageTotals {
  return ZERO_TOTALS;
}

/** A usage field that held a negative number: left out of the sums and reported. */
export interface NegativeUsageField {
  /** The field's path in the usage object: `input`, `totalTokens`, `cost.total`, ... */
  readonly field: string;
  readonly value: number;
}

/**
 * A count as summed: a finite number that is not negative, else 0. Missing fields, strings,
 * NaN and ±Infinity never poison a sum; a negative number is no count a provider reports
 * (pi clamps its own), so it is dropped like garbage but, unlike garbage, told to `negatives`:
 * a writer that subtracts is a bug worth seeing, not noise.
 */
function num(value: unknown, field: string, negatives: NegativeUsageField[] | undefined): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return 0;
  if (value >= 0) return value;
  negatives?.push({ field, value });
  return 0;
}

/** A raw usage object as it may be: any field missing or of any type. */
type RawUsage = Partial<Record<keyof NormalizedUsage, unknown>>;
type RawCost = Partial<Record<keyof UsageCostTotals, unknown>>;

/**
 * A raw `Usage` value as numbers. The session layer never validates usage (SPEC §3.5), so any
 * field may be missing or of the wrong type; such fields count as 0, and negative ones count
 * as 0 and are pushed to `negatives` (in field order) when it is given.
 *
 * `totalTokens` falls back to `input + output + cacheRead + cacheWrite` when it is missing,
 * garbage or negative: older pi files (1.x before `totalTokens` was written) have none, and
 * pi's own `/session` totals, its usage breakdown and its HTML export all use that sum.
 * A recorded `totalTokens` is kept as written. (Named property reads, not a generic
 * `read(obj, key)`: this runs once per usage record on every load, and V8 keeps named reads
 * fast where a shared keyed read goes megamorphic.)
 */
export function normalizeUsage(raw: unknown, negatives?: NegativeUsageField[]): NormalizedUsage {
  const u: RawUsage = typeof raw === "object" && raw !== null ? (raw as RawUsage) : {};
  const c: RawCost = typeof u.cost === "object" && u.cost !== null ? (u.cost as RawCost) : {};
  const input = num(u.input, "input", negatives);
  const output = num(u.output, "output", negatives);
  const cacheRead = num(u.cacheRead, "cacheRead", negatives);
  const cacheWrite = num(u.cacheWrite, "cacheWrite", negatives);
  const cacheWrite1h = num(u.cacheWrite1h, "cacheWrite1h", negatives);
  const reasoning = num(u.reasoning, "reasoning", negatives);
  const recorded = u.totalTokens;
  const totalTokens =
    typeof recorded === "number" && Number.isFinite(recorded) && recorded >= 0
      ? recorded
      : // num() adds 0 here; it is called only so that a negative total is reported.
        num(recorded, "totalTokens", negatives) + input + output + cacheRead + cacheWrite;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    cacheWrite1h,
    reasoning,
    totalTokens,
    cost: {
      input: num(c.input, "cost.input", negatives),
      output: num(c.output, "cost.output", negatives),
      cacheRead: num(c.cacheRead, "cost.cacheRead", negatives),
      cacheWrite: num(c.cacheWrite, "cost.cacheWrite", negatives),
      total: num(c.total, "cost.total", negatives),
      totalFromProvider: c.totalFromProvider === true,
    },
  };
}

/** `sums` plus one normalised record. */
export function addToSums(sums: UsageSums, usage: NormalizedUsage): UsageSums {
  return {
    input: sums.input + usage.input,
    output: sums.output + usage.output,
    cacheRead: sums.cacheRead + usage.cacheRead,
    cacheWrite: sums.cacheWrite + usage.cacheWrite,
    cacheWrite1h: sums.cacheWrite1h + usage.cacheWrite1h,
    reasoning: sums.reasoning + usage.reasoning,
    totalTokens: sums.totalTokens + usage.totalTokens,
    cost: {
      input: sums.cost.input + usage.cost.input,
      output: sums.cost.output + usage.cost.output,
      cacheRead: sums.cost.cacheRead + usage.cost.cacheRead,
      cacheWrite: sums.cost.cacheWrite + usage.cost.cacheWrite,
      total: sums.cost.total + usage.cost.total,
      totalFromProvider:
        (sums.records === 0 || sums.cost.totalFromProvider) && usage.cost.totalFromProvider,
    },
    records: sums.records + 1,
  };
}

/** `totals` plus one record attributed to `key`. O(number of keys). */
export function addToTotals(totals: UsageTotals, key: string, usage: NormalizedUsage): UsageTotals {
  const sums = addToSums(totals, usage);
  // A plain copy loop and an explicit literal: spreading here was ~10x slower in V8.
  const byModel: Record<string, UsageSums> = {};
  let model = ZERO_SUMS;
  for (const k of Object.keys(totals.byModel)) {
    const v = totals.byModel[k] as UsageSums;
    byModel[k] = v;
    if (k === key) model = v;
  }
  byModel[key] = addToSums(model, usage);
  return {
    input: sums.input,
    output: sums.output,
    cacheRead: sums.cacheRead,
    cacheWrite: sums.cacheWrite,
    cacheWrite1h: sums.cacheWrite1h,
    reasoning: sums.reasoning,
    totalTokens: sums.totalTokens,
    cost: sums.cost,
    records: sums.records,
    byModel,
  };
}
