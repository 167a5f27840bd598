/**
 * An independent sum of a session's usage for the `usage` command's tests, written from the raw
 * JSON lines and not from the plugins code the command uses.
 */
import { readFileSync } from "node:fs";
import { USAGE_TOKEN_FIELDS } from "@pi-sessions/test-utils";
import { expect } from "vitest";

/** A raw JSON record of a session file. */
export type Raw = Record<string, unknown>;

/** The usage objects of raw records, as pi records them (independent of the plugins code). */
export function rawUsages(records: readonly Raw[]): Raw[] {
  const out: Raw[] = [];
  for (const r of records) {
    const m = r.message as Raw | undefined;
    if (r.type === "message" && m && (m.role === "assistant" || m.role === "toolResult")) {
      if (typeof m.usage === "object" && m.usage !== null) out.push(m.usage as Raw);
    } else if (["compaction", "branch_summary", "usage"].includes(String(r.type))) {
      if (typeof r.usage === "object" && r.usage !== null) out.push(r.usage as Raw);
    }
  }
  return out;
}

/** A count as pi means it: a non-negative number, else nothing. */
function count(value: unknown): number {
  return typeof value === "number" && value >= 0 ? value : 0;
}

/** One record's `field`; a record without `totalTokens` counts its four token counts. */
function tokens(u: Raw, field: string): number {
  if (field !== "totalTokens" || typeof u.totalTokens === "number") return count(u[field]);
  return count(u.input) + count(u.output) + count(u.cacheRead) + count(u.cacheWrite);
}

/** The sum of `field` over `usages`. */
export function sum(usages: readonly Raw[], field: string): number {
  return usages.reduce((n, u) => n + tokens(u, field), 0);
}

/** The sum of the cost totals of `usages`. */
function costSum(usages: readonly Raw[]): number {
  return usages.reduce(
    (n, u) => n + (((u.cost as Raw | undefined)?.total as number | undefined) ?? 0),
    0,
  );
}

/** The entry records of a session file (header left out), straight from its lines. */
export function recordsOf(path: string): Raw[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Raw)
    .filter((r) => r.type !== "session");
}

/** Root → last entry, by walking parent ids (the leaf of a freshly loaded file). */
export function pathToLast(records: readonly Raw[]): Raw[] {
  const byId = new Map(records.map((r) => [r.id as string, r]));
  const path: Raw[] = [];
  let at = records[records.length - 1];
  while (at) {
    path.unshift(at);
    at = at.parentId === null ? undefined : byId.get(at.parentId as string);
  }
  return path;
}

/** Checks the command's `totals` against the independent sum of `usages`. */
export function expectTotals(totals: Raw, usages: readonly Raw[]): void {
  expect(totals.records).toBe(usages.length);
  for (const f of USAGE_TOKEN_FIELDS) expect(totals[f], f).toBe(sum(usages, f));
  expect((totals.cost as Raw).total).toBeCloseTo(costSum(usages), 10);
}
