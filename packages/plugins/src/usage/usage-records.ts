/**
 * Where pi records usage (issue 4 part 5) and which `provider/model` key each record gets.
 * The keys follow the reference's `/usage` breakdown (`getUsageCostBreakdown` in pi 1.6).
 */
import type { SessionEntry } from "@pi-sessions/core";
import { type NormalizedUsage, normalizeUsage } from "./usage-sums.js";

/**
 * The key of usage that no entry attributes to a model: a tool's nested LLM work
 * (`toolResult.usage`) and the summariser of a compaction or branch summary. pi's own
 * `/usage` breakdown files them under this same name.
 */
export const UNATTRIBUTED_USAGE_KEY = "Tools/summaries";

/** Which field of which entry a usage record came from. */
export type UsageRecordSource =
  | "assistant"
  | "toolResult"
  | "compaction"
  | "branch_summary"
  | "usage";

/** One usage record of an entry. */
export interface UsageRecord {
  /** `provider/model`, or {@link UNATTRIBUTED_USAGE_KEY}. */
  readonly key: string;
  readonly source: UsageRecordSource;
  readonly usage: NormalizedUsage;
}

function field(obj: unknown, key: string): unknown {
  return typeof obj === "object" && obj !== null
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-empty string, else "unknown": a key always has the `provider/model` shape. */
function part(value: unknown): string {
  return typeof value === "string" && value.length > 0 ? value : "unknown";
}

function modelKey(provider: unknown, model: unknown): string {
  return `${part(provider)}/${part(model)}`;
}

/**
 * The usage record an entry carries, or undefined. Exactly one place per entry:
 * - `message` with role `assistant`: `message.usage`, keyed `provider/(responseModel ?? model)`
 *   (the model that actually answered, as the reference's breakdown does);
 * - `message` with role `toolResult` and a `usage` object: {@link UNATTRIBUTED_USAGE_KEY};
 * - `compaction` / `branch_summary` with a `usage` object: {@link UNATTRIBUTED_USAGE_KEY};
 * - `usage` entries: keyed `provider/model`.
 *
 * A usage value that is not an object counts as no record; an object with missing or garbage
 * numbers counts with those fields as 0. Never throws on JSON data.
 */
export function usageRecordOf(entry: SessionEntry): UsageRecord | undefined {
  const type = field(entry, "type");
  if (type === "message") {
    const message = field(entry, "message");
    const role = field(message, "role");
    const usage = field(message, "usage");
    if (!isObject(usage)) return undefined;
    if (role === "assistant") {
      const responseModel = field(message, "responseModel");
      const model = typeof responseModel === "string" ? responseModel : field(message, "model");
      return {
        key: modelKey(field(message, "provider"), model),
        source: "assistant",
        usage: normalizeUsage(usage),
      };
    }
    if (role === "toolResult") {
      return { key: UNATTRIBUTED_USAGE_KEY, source: "toolResult", usage: normalizeUsage(usage) };
    }
    return undefined;
  }
  if (type === "compaction" || type === "branch_summary") {
    const usage = field(entry, "usage");
    if (!isObject(usage)) return undefined;
    return { key: UNATTRIBUTED_USAGE_KEY, source: type, usage: normalizeUsage(usage) };
  }
  if (type === "usage") {
    const usage = field(entry, "usage");
    if (!isObject(usage)) return undefined;
    return {
      key: modelKey(field(entry, "provider"), field(entry, "model")),
      source: "usage",
      usage: normalizeUsage(usage),
    };
  }
  return undefined;
}
