/**
 * An independent, naive usage summer for the tests: written from SPEC §3.2/§3.3/§3.5 and the
 * reference's `/usage` breakdown rules without the plugin's code (no shared helpers), so the
 * tests compare two implementations rather than one with itself.
 */

import { USAGE_TOKEN_FIELDS as TOKEN_FIELDS } from "@pi-sessions/test-utils";

export interface NaiveSums {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cacheWrite1h: number;
  reasoning: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
  records: number;
}

export interface NaiveTotals extends NaiveSums {
  byModel: Record<string, NaiveSums>;
}

const COST_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "total"] as const;

function zero(): NaiveSums {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    reasoning: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    records: 0,
  };
}

export function naiveZero(): NaiveTotals {
  return { ...zero(), byModel: {} };
}

/** A count that is summed: finite and not negative (negatives are reported, not summed). */
function good(x: unknown): number {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : 0;
}

function costOf(usage: Record<string, unknown>): Record<string, unknown> {
  const cost = usage.cost;
  return typeof cost === "object" && cost !== null ? (cost as Record<string, unknown>) : {};
}

/**
 * The tokens a record counts: its recorded `totalTokens` when that is usable, else (older pi
 * files have none) input + output + cacheRead + cacheWrite, as pi's `/session` and HTML export add.
 */
export function naiveTotalTokens(usage: Record<string, unknown>): number {
  const t = usage.totalTokens;
  if (typeof t === "number" && Number.isFinite(t) && t >= 0) return t;
  return good(usage.input) + good(usage.output) + good(usage.cacheRead) + good(usage.cacheWrite);
}

function addInto(target: NaiveSums, usage: Record<string, unknown>): void {
  for (const f of TOKEN_FIELDS) {
    target[f] += f === "totalTokens" ? naiveTotalTokens(usage) : good(usage[f]);
  }
  const cost = costOf(usage);
  for (const f of COST_FIELDS) target.cost[f] += good(cost[f]);
  target.records += 1;
}

/** Expected diagnostics: every negative finite count or cost, in field order, per record. */
export function naiveDiagnostics(
  entries: readonly unknown[],
): { entryId: string | undefined; field: string; value: number }[] {
  const out: { entryId: string | undefined; field: string; value: number }[] = [];
  const negative = (x: unknown): x is number =>
    typeof x === "number" && Number.isFinite(x) && x < 0;
  for (const entry of entries) {
    const rec = naiveRecord(entry);
    if (!rec) continue;
    const usage = rec[1];
    const id = (entry as Record<string, unknown>).id;
    const entryId = typeof id === "string" ? id : undefined;
    for (const f of TOKEN_FIELDS) {
      if (negative(usage[f])) out.push({ entryId, field: f, value: usage[f] });
    }
    const cost = costOf(usage);
    for (const f of COST_FIELDS) {
      if (negative(cost[f])) out.push({ entryId, field: `cost.${f}`, value: cost[f] });
    }
  }
  return out;
}

/** [key, usage] of one record, by a plain switch over the entry shape. */
export function naiveRecord(entry: unknown): [string, Record<string, unknown>] | undefined {
  if (!entry || typeof entry !== "object") return undefined;
  const e = entry as Record<string, unknown>;
  const isObj = (u: unknown): u is Record<string, unknown> =>
    !!u && typeof u === "object" && !Array.isArray(u);
  const name = (v: unknown) => (typeof v === "string" && v !== "" ? v : "unknown");
  switch (e.type) {
    case "message": {
      const m = e.message as Record<string, unknown> | null;
      if (!m || !isObj(m.usage)) return undefined;
      if (m.role === "assistant") {
        const model = typeof m.responseModel === "string" ? m.responseModel : m.model;
        return [`${name(m.provider)}/${name(model)}`, m.usage];
      }
      if (m.role === "toolResult") return ["Tools/summaries", m.usage];
      return undefined;
    }
    case "compaction":
    case "branch_summary":
      return isObj(e.usage) ? ["Tools/summaries", e.usage] : undefined;
    case "usage":
      return isObj(e.usage) ? [`${name(e.provider)}/${name(e.model)}`, e.usage] : undefined;
    default:
      return undefined;
  }
}

/** Naive totals of a list of entries, in the given order. */
export function naiveTotals(entries: readonly unknown[]): NaiveTotals {
  const totals = naiveZero();
  for (const entry of entries) {
    const rec = naiveRecord(entry);
    if (!rec) continue;
    const [key, usage] = rec;
    addInto(totals, usage);
    totals.byModel[key] ??= zero();
    addInto(totals.byModel[key] as NaiveSums, usage);
  }
  return totals;
}

/** Path root → leaf by following parentId in a plain id map (last occurrence wins). */
export function naivePath(entries: readonly unknown[], leafId: string | null): unknown[] {
  const byId = new Map<string, Record<string, unknown>>();
  for (const e of entries) {
    const r = e as Record<string, unknown>;
    if (r && typeof r.id === "string") byId.set(r.id, r);
  }
  const path: unknown[] = [];
  const seen = new Set<string>();
  let cur = leafId === null ? undefined : byId.get(leafId);
  while (cur && !seen.has(cur.id as string)) {
    seen.add(cur.id as string);
    path.unshift(cur);
    cur = typeof cur.parentId === "string" ? byId.get(cur.parentId) : undefined;
  }
  return path;
}

/** The plugin's totals without `totalFromProvider`, for comparison with the naive shape. */
export function comparable(totals: {
  cost: object;
  byModel: Readonly<Record<string, { cost: object }>>;
}): NaiveTotals {
  const strip = <T extends { cost: object }>(s: T) => {
    const { totalFromProvider: _ignored, ...cost } = s.cost as Record<string, unknown>;
    return { ...s, cost };
  };
  const { byModel, ...rest } = strip(totals);
  return {
    ...(rest as unknown as NaiveSums),
    byModel: Object.fromEntries(
      Object.entries(byModel).map(([k, v]) => [k, strip(v) as unknown as NaiveSums]),
    ),
  };
}
