/**
 * Turns measured rows into the printed tables, the target checks and `results.json`.
 * Ratios are of medians; "ours/base" divides by the raw `JSON.parse` baseline of the same
 * session, measured in the same process.
 */

import { formatNs, formatRatio } from "./harness.js";
import type { Impl, Metric, Row } from "./scenarios.js";

/** A target and whether it was met. */
export interface Check {
  readonly name: string;
  readonly shape: string;
  readonly size: number | string;
  readonly value: string;
  readonly target: string;
  readonly pass: boolean;
}

const LABELS: Record<Metric, string> = {
  parse: "baseline: split + JSON.parse",
  open: "open: text → fromJsonl",
  "open.inMemory": "open: parse + inMemory (copies)",
  "open.records": "open: parsed records → inMemory",
  "open.adopt": "open: adopt records (no copy)*",
  "context.first": "buildSessionContext, 1st call",
  context: "buildSessionContext, repeated",
  step: "agent step (2 appends+ctx+branch)",
  children: "getChildren(random id)",
  append: "appendMessage",
  "append.warm": "appendMessage, context warm",
  "append.heard": "appendMessage, 2 bus handlers",
};

/** Which reference row an ours row is compared with. */
const REF_OF: Partial<Record<Metric, Metric>> = {
  open: "open",
  "open.inMemory": "open",
  "open.records": "open.records",
  "open.adopt": "open.records",
  "context.first": "context",
  context: "context",
  step: "step",
  children: "children",
  append: "append",
  "append.warm": "append",
  "append.heard": "append",
};

const OPEN_METRICS = new Set<Metric>(["open", "open.inMemory", "open.records", "open.adopt"]);

function find(rows: readonly Row[], metric: Metric, impl: Impl): Row | undefined {
  return rows.find((r) => r.metric === metric && r.impl === impl);
}

function cell(row: Row | undefined): string {
  if (!row) return "—";
  return `${formatNs(row.result.medianNs)} (${formatNs(row.result.minNs)})`;
}

const pad = (s: string, n: number): string => (s.length >= n ? s : s + " ".repeat(n - s.length));
const lpad = (s: string, n: number): string => (s.length >= n ? s : " ".repeat(n - s.length) + s);

/** Checks against the targets for one session's rows. */
export function sessionChecks(rows: readonly Row[], isLargest: boolean): Check[] {
  const first = rows[0];
  if (!first) return [];
  const { shape, size } = first;
  const ratio = (metric: Metric): [number, number] => {
    const o = find(rows, metric, "ours");
    const r = find(rows, REF_OF[metric] ?? metric, "ref");
    if (!o || !r) return [Number.NaN, Number.NaN];
    return [o.result.medianNs / r.result.medianNs, o.result.minNs / r.result.minNs];
  };
  const checks: Check[] = [];
  const add = (
    name: string,
    [value, ofMins]: [number, number],
    target: number,
    text: string,
    fmt = formatRatio,
  ): void => {
    const shown = Number.isNaN(ofMins) ? fmt(value) : `${fmt(value)} (mins ${fmt(ofMins)})`;
    checks.push({ name, shape, size, value: shown, target: text, pass: value <= target });
  };
  add("open ours÷ref", ratio("open"), 1.0, "≤ 1.0×");
  if (isLargest) {
    add("buildSessionContext ours÷ref", ratio("context"), 0.05, "≤ 0.05×");
    add("agent step ours÷ref", ratio("step"), 0.1, "≤ 0.1×");
  }
  const children = find(rows, "children", "ours");
  if (children)
    add(
      "getChildren ours per call",
      [children.result.medianNs, Number.NaN],
      1000,
      "≤ 1 µs",
      formatNs,
    );
  return checks;
}

/** The printed table of one session. */
export function sessionTable(rows: readonly Row[], title: string): string {
  const base = find(rows, "parse", "base");
  const head = [
    pad("metric", 36),
    lpad("ours median (min)", 22),
    lpad("ref median (min)", 22),
    lpad("ours/ref", 10),
    lpad("(of mins)", 10),
    lpad("ours/base", 10),
  ].join(" ");
  const lines = [title, head, "-".repeat(head.length)];
  if (base) lines.push([pad(LABELS.parse, 36), lpad(cell(base), 22)].join(" "));
  for (const metric of Object.keys(LABELS) as Metric[]) {
    if (metric === "parse") continue;
    const o = find(rows, metric, "ours");
    const r = find(rows, REF_OF[metric] ?? metric, "ref");
    if (!o && !r) continue;
    const ratio = o && r ? formatRatio(o.result.medianNs / r.result.medianNs) : "—";
    const ofMins = o && r ? formatRatio(o.result.minNs / r.result.minNs) : "—";
    const vsBase =
      o && base && OPEN_METRICS.has(metric)
        ? formatRatio(o.result.medianNs / base.result.medianNs)
        : "";
    const refCell =
      REF_OF[metric] !== undefined && REF_OF[metric] !== metric ? `(= ${cell(r)})` : cell(r);
    lines.push(
      [
        pad(LABELS[metric], 36),
        lpad(cell(o), 22),
        lpad(refCell, 22),
        lpad(ratio, 10),
        lpad(ofMins, 10),
        lpad(vsBase, 10),
      ].join(" "),
    );
  }
  return lines.join("\n");
}

/**
 * Append cost by size for one shape (rows from {@link appendScenarios}: all sizes measured in
 * the same rounds), with ours ÷ reference per size and the flatness check: largest ÷ smallest
 * size, of medians (and of minimums, shown alongside).
 */
export function appendFlatness(
  rows: readonly Row[],
  shape: string,
): { table: string; checks: Check[] } {
  const mine = rows.filter((r) => r.shape === shape && r.metric.startsWith("append"));
  const sizes = [...new Set(mine.map((r) => r.size))].sort((a, b) => a - b);
  const lo = sizes[0] ?? 0;
  const hi = sizes[sizes.length - 1] ?? 0;
  const get = (size: number, metric: Metric, impl: Impl): Row | undefined =>
    mine.find((r) => r.size === size && r.metric === metric && r.impl === impl);
  const head = [
    pad(`appendMessage (${shape}), per call`, 36),
    ...sizes.map((n) => lpad(`${n} entries`, 22)),
    lpad(`${hi}÷${lo}`, 10),
    lpad("(of mins)", 10),
  ].join(" ");
  const lines = [head, "-".repeat(head.length)];
  const checks: Check[] = [];
  const series: [string, Metric, Impl][] = [
    ["ours", "append", "ours"],
    ["ours, context warm", "append.warm", "ours"],
    ["ours, 2 bus handlers", "append.heard", "ours"],
    ["ref", "append", "ref"],
  ];
  for (const [label, metric, impl] of series) {
    const bySize = sizes.map((size) => get(size, metric, impl));
    const first = bySize[0]?.result;
    const last = bySize[bySize.length - 1]?.result;
    const flat = first && last ? last.medianNs / first.medianNs : Number.NaN;
    const flatMin = first && last ? last.minNs / first.minNs : Number.NaN;
    lines.push(
      [
        pad(label, 36),
        ...bySize.map((r) => lpad(cell(r), 22)),
        lpad(formatRatio(flat), 10),
        lpad(formatRatio(flatMin), 10),
      ].join(" "),
    );
    if (impl === "ours" && sizes.length > 1) {
      checks.push({
        name: `append flat, ${label} (${hi}÷${lo})`,
        shape,
        size: `${lo}→${hi}`,
        value: `${formatRatio(flat)} (mins ${formatRatio(flatMin)})`,
        target: "≈ 1.0× (≤ 1.3×)",
        pass: flat <= 1.3,
      });
    }
  }
  const ratios = sizes.map((size) => {
    const o = get(size, "append", "ours")?.result.medianNs;
    const r = get(size, "append", "ref")?.result.medianNs;
    return lpad(o && r ? formatRatio(o / r) : "—", 22);
  });
  lines.push([pad("ours ÷ ref", 36), ...ratios].join(" "));
  return { table: lines.join("\n"), checks };
}

/** The printed list of target checks. */
export function checksTable(checks: readonly Check[]): string {
  const lines = ["targets (ours ÷ reference unless stated):"];
  for (const c of checks) {
    lines.push(
      `  ${c.pass ? "PASS" : "MISS"}  ${pad(c.name, 46)} ${pad(`${c.shape} ${c.size}`, 20)} ${pad(c.value, 26)} target ${c.target}`,
    );
  }
  return lines.join("\n");
}

/** The JSON written to `bench/results.json`. */
export function resultsJson(
  meta: Record<string, unknown>,
  rows: readonly Row[],
  checks: readonly Check[],
): string {
  return `${JSON.stringify(
    {
      meta,
      rows: rows.map((r) => ({
        shape: r.shape,
        size: r.size,
        metric: r.metric,
        impl: r.impl,
        medianNs: Math.round(r.result.medianNs * 10) / 10,
        minNs: Math.round(r.result.minNs * 10) / 10,
        meanNs: Math.round(r.result.meanNs * 10) / 10,
        samples: r.result.samples,
        calls: r.result.calls,
        batch: r.result.batch,
      })),
      checks,
    },
    null,
    2,
  )}\n`;
}
