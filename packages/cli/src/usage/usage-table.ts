/**
 * Text tables of usage totals for people: one row per line, tokens with thousands separators
 * and cost in dollars. Pure; the command writes the lines.
 */
import type { UsageDiagnostic, UsageTotals } from "@pi-sessions/plugins";
import { formatCount, pad } from "../io/output.js";

/** One table row: a label and the totals it shows. */
export interface UsageRow {
  readonly label: string;
  readonly totals: UsageTotals;
}

const COLUMNS = ["records", "input", "output", "cache read", "cache write", "total tokens", "cost"];

/** Dollars with four decimals below $10 (where cents hide most of a session's cost), else two. */
export function formatCost(dollars: number): string {
  return `$${dollars.toFixed(Math.abs(dollars) < 10 ? 4 : 2)}`;
}

function cells(t: UsageTotals): string[] {
  return [
    formatCount(t.records),
    formatCount(t.input),
    formatCount(t.output),
    formatCount(t.cacheRead),
    formatCount(t.cacheWrite),
    formatCount(t.totalTokens),
    formatCost(t.cost.total),
  ];
}

/**
 * Rows as aligned columns under a header line; `title` heads the label column. Labels longer
 * than 48 characters are cut from the left (paths keep their informative end).
 */
export function usageTable(title: string, rows: readonly UsageRow[]): string[] {
  const labelOf = (s: string) => (s.length > 48 ? `…${s.slice(-47)}` : s);
  const body = rows.map((r) => [labelOf(r.label), ...cells(r.totals)]);
  const head = [title, ...COLUMNS];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => pad(v, widths[i] ?? 0, i > 0))
      .join("  ")
      .trimEnd();
  return [line(head), ...body.map(line)];
}

/** Extra facts worth a line under a table: reasoning and 1-hour cache tokens, when present. */
export function usageNotes(t: UsageTotals): string[] {
  const notes: string[] = [];
  if (t.reasoning > 0) notes.push(`reasoning tokens (inside output): ${formatCount(t.reasoning)}`);
  if (t.cacheWrite1h > 0) {
    notes.push(`cache writes with 1-hour retention: ${formatCount(t.cacheWrite1h)}`);
  }
  return notes;
}

/** Most warning lines printed; the rest are counted in one more line (all are in `--json`). */
export const MAX_USAGE_WARNINGS = 20;

/**
 * One stderr line per usage diagnostic (a negative count or cost, left out of the sums), each
 * naming the file, the entry and the field; past {@link MAX_USAGE_WARNINGS}, one line counts
 * the rest, so a broken writer cannot bury the table.
 */
export function usageWarnings(
  diagnostics: readonly (UsageDiagnostic & { readonly path?: string | undefined })[],
  path?: string,
): string[] {
  const lines = diagnostics
    .slice(0, MAX_USAGE_WARNINGS)
    .map((d) => `warning: ${d.path ?? path ?? "?"}: ${d.message}`);
  const rest = diagnostics.length - lines.length;
  if (rest > 0) lines.push(`warning: ${rest} more negative usage field(s); see --json diagnostics`);
  return lines;
}
