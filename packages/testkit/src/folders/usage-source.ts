/**
 * Where a record carries usage and which `provider/model` key it is counted under, written
 * from the documented counting rules (pi's `/session` breakdown, `@pi-sessions/plugins`'
 * `docs/usage.md`), not from any engine's code: the oracles must be able to disagree with an
 * engine that got a rule wrong.
 */

import { isJsonRecord } from "@pi-sessions/core/internal";

/** The key of usage no entry attributes to a model (tool results, compaction and branch summaries). */
export const SUMMARIES_KEY = "Tools/summaries";

/** A record's usage object and its key. */
export interface UsageSource {
  /** `provider/model` (`responseModel` before `model`), or {@link SUMMARIES_KEY}. */
  readonly key: string;
  /** The usage object as written (any field may be missing or of another type). */
  readonly usage: Record<string, unknown>;
}

function keyPart(value: unknown): string {
  return typeof value === "string" && value.length > 0 ? value : "unknown";
}

/**
 * The usage a record carries: an assistant message's `message.usage`, a tool result's
 * `message.usage`, a compaction's or branch summary's `usage`, a `usage` entry's `usage`.
 * Anything else (and a usage value that is not an object) carries none.
 */
export function usageSourceOf(record: unknown): UsageSource | undefined {
  if (!isJsonRecord(record)) return undefined;
  if (record.type === "message") {
    const m = record.message;
    if (!isJsonRecord(m) || !isJsonRecord(m.usage)) return undefined;
    if (m.role === "assistant") {
      const model = typeof m.responseModel === "string" ? m.responseModel : m.model;
      return { key: `${keyPart(m.provider)}/${keyPart(model)}`, usage: m.usage };
    }
    return m.role === "toolResult" ? { key: SUMMARIES_KEY, usage: m.usage } : undefined;
  }
  if (!isJsonRecord(record.usage)) return undefined;
  if (record.type === "compaction" || record.type === "branch_summary") {
    return { key: SUMMARIES_KEY, usage: record.usage };
  }
  if (record.type === "usage") {
    return { key: `${keyPart(record.provider)}/${keyPart(record.model)}`, usage: record.usage };
  }
  return undefined;
}
