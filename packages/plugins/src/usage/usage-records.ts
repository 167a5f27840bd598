/**
 * Where pi records usage and which `provider/model` key each record gets.
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

/** The fields read from an entry, any of them possibly missing or of another type. */
interface RawEntry {
  type?: unknown;
  message?: unknown;
  usage?: unknown;
  provider?: unknown;
  model?: unknown;
}

interface RawMessage {
  role?: unknown;
  usage?: unknown;
  provider?: unknown;
  model?: unknown;
  responseModel?: unknown;
}

function isObject(value: unknown): value is object {
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
  // Named reads through typed views (not a generic field(obj, key)): this runs for every
  // entry of every load, and V8 keeps named reads fast where a shared keyed read does not.
  if (!isObject(entry)) return undefined;
  const e = entry as RawEntry;
  const type = e.type;
  if (type === "message") {
    if (!isObject(e.message)) return undefined;
    const m = e.message as RawMessage;
    if (!isObject(m.usage)) return undefined;
    if (m.role === "assistant") {
      const model = typeof m.responseModel === "string" ? m.responseModel : m.model;
      return {
        key: modelKey(m.provider, model),
        source: "assistant",
        usage: normalizeUsage(m.usage),
      };
    }
    if (m.role === "toolResult") {
      return { key: UNATTRIBUTED_USAGE_KEY, source: "toolResult", usage: normalizeUsage(m.usage) };
    }
    return undefined;
  }
  if (type === "compaction" || type === "branch_summary") {
    if (!isObject(e.usage)) return undefined;
    return { key: UNATTRIBUTED_USAGE_KEY, source: type, usage: normalizeUsage(e.usage) };
  }
  if (type === "usage") {
    if (!isObject(e.usage)) return undefined;
    return { key: modelKey(e.provider, e.model), source: "usage", usage: normalizeUsage(e.usage) };
  }
  return undefined;
}
