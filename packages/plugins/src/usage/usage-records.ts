/**
 * Where pi records usage and which `provider/model` key each record gets.
 * The keys follow the reference's `/usage` breakdown (`getUsageCostBreakdown` in pi 1.6).
 */
import type { SessionEntry } from "@pi-sessions/core";
import { isJsonRecord } from "@pi-sessions/core/internal";
import { type NegativeUsageField, type NormalizedUsage, normalizeUsage } from "./usage-sums.js";

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

/** A usage field with a negative number: the record counts, that field does not. */
export interface UsageDiagnostic {
  /** The id of the entry holding the record (undefined for an id-less v1 record). */
  readonly entryId: string | undefined;
  readonly source: UsageRecordSource;
  /** The field's path in the usage object: `input`, `totalTokens`, `cost.total`, ... */
  readonly field: string;
  /** The negative number the file holds. */
  readonly value: number;
  /** One line for people, e.g. `entry 1a2b3c4d (assistant): usage.output is -12; not counted`. */
  readonly message: string;
}

/** One usage record of an entry. */
export interface UsageRecord {
  /** `provider/model`, or {@link UNATTRIBUTED_USAGE_KEY}. */
  readonly key: string;
  readonly source: UsageRecordSource;
  readonly usage: NormalizedUsage;
  /** Its negative fields, in field order (usually none: a shared empty array). */
  readonly diagnostics: readonly UsageDiagnostic[];
}

const NO_DIAGNOSTICS: readonly UsageDiagnostic[] = Object.freeze([]);

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

/** A non-empty string, else "unknown": a key always has the `provider/model` shape. */
function part(value: unknown): string {
  return typeof value === "string" && value.length > 0 ? value : "unknown";
}

function modelKey(provider: unknown, model: unknown): string {
  return `${part(provider)}/${part(model)}`;
}

/** The record of `entry`: `raw` normalised, its negative fields turned into diagnostics. */
function record(entry: object, key: string, source: UsageRecordSource, raw: unknown): UsageRecord {
  const negatives: NegativeUsageField[] = [];
  const usage = normalizeUsage(raw, negatives);
  if (negatives.length === 0) return { key, source, usage, diagnostics: NO_DIAGNOSTICS };
  const id: unknown = (entry as { id?: unknown }).id;
  const entryId = typeof id === "string" ? id : undefined;
  const diagnostics = negatives.map(({ field, value }) => ({
    entryId,
    source,
    field,
    value,
    // A negative total is replaced by the sum of the four counts; any other field counts as 0.
    message: `entry ${entryId ?? "(no id)"} (${source}): usage.${field} is ${value}; ${
      field === "totalTokens" ? "the sum of the counts is used" : "not counted"
    }`,
  }));
  return { key, source, usage, diagnostics };
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
 * numbers counts with those fields as 0; a negative number counts as 0 and becomes one of the
 * record's `diagnostics`; a missing `totalTokens` is the sum of the four counts
 * (`normalizeUsage`). Never throws on JSON data.
 */
export function usageRecordOf(entry: SessionEntry): UsageRecord | undefined {
  // Named reads through typed views (not a generic field(obj, key)): this runs for every
  // entry of every load, and V8 keeps named reads fast where a shared keyed read does not.
  if (!isJsonRecord(entry)) return undefined;
  const e = entry as RawEntry;
  const type = e.type;
  if (type === "message") {
    if (!isJsonRecord(e.message)) return undefined;
    const m = e.message as RawMessage;
    if (!isJsonRecord(m.usage)) return undefined;
    if (m.role === "assistant") {
      const model = typeof m.responseModel === "string" ? m.responseModel : m.model;
      return record(entry, modelKey(m.provider, model), "assistant", m.usage);
    }
    if (m.role === "toolResult")
      return record(entry, UNATTRIBUTED_USAGE_KEY, "toolResult", m.usage);
    return undefined;
  }
  if (type === "compaction" || type === "branch_summary") {
    if (!isJsonRecord(e.usage)) return undefined;
    return record(entry, UNATTRIBUTED_USAGE_KEY, type, e.usage);
  }
  if (type === "usage") {
    if (!isJsonRecord(e.usage)) return undefined;
    return record(entry, modelKey(e.provider, e.model), "usage", e.usage);
  }
  return undefined;
}
