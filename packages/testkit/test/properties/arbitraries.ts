/**
 * Shared arbitraries of the property tests for DESIGN §4 (I2–I4, I6, I8, I9): entry logs in a
 * valid and a damaged variant (run settings come from `../arbitraries-run.ts`). Manager operations live in `operations.ts`,
 * oracles and the answers the laws compare in `oracles.ts`.
 */
import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import fc from "fast-check";
import { USAGE } from "../../src/conformance/fixtures.js";
import { ENTRY_KINDS } from "../../src/internal.js";

// --- entry logs --------------------------------------------------------------------------

/** Equal instants in several spellings, near instants, and unparseable strings (§7.8). */
export const TIMESTAMPS = [
  "2025-01-01T00:00:00.000Z",
  "2025-01-01T00:00:00Z",
  "2025-01-01",
  "2025-01-01T00:00:01.000Z",
  "2024-12-31T23:59:59.999Z",
  "2025-01-01T00:00:00.000+01:00",
  "not a date",
  "",
] as const;

/** Ids of the damaged variant: few enough that duplicates, self-parents and cycles are common. */
export const DAMAGED_IDS = ["a", "b", "c", "d", "e", "__proto__"] as const;
/** A parent id that never names an entry. */
export const MISSING_ID = "zz";

export const HEADER: SessionHeader = {
  type: "session",
  version: 3,
  id: "01890000-0000-7000-8000-000000000000",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/tmp/p",
};

/**
 * The kinds a body is made for: the four message roles, every other built-in entry type but
 * `usage` (which {@link makeEntry} has no body for), and one type core does not know.
 */
const KINDS = [
  ...(["user", "assistant", "toolResult", "system"] as const),
  ...ENTRY_KINDS.filter((kind) => kind !== "message" && kind !== "usage"),
  "future_thing",
] as const;

/** The type-specific part of one entry; `ref` and `variant` pick targets and shapes. */
export interface BodySpec {
  kind: (typeof KINDS)[number];
  ref: number;
  variant: number;
  ts: number;
}

export const bodySpec: fc.Arbitrary<BodySpec> = fc.record({
  kind: fc.constantFrom(...KINDS),
  ref: fc.nat(60),
  variant: fc.nat(5),
  ts: fc.nat(TIMESTAMPS.length - 1),
});

export const PROVIDERS = ["anthropic", "openai", "google"];
export const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length] as T;

/** A message of `role`; variant 5 has no content (context substitutes an empty one). */
export function message(role: string, text: string, variant: number, ms: number): unknown {
  const blocks = [{ type: "text", text }];
  const content = variant === 5 ? undefined : variant % 2 === 0 ? text : blocks;
  switch (role) {
    case "assistant":
      return {
        role,
        content: variant === 5 ? undefined : blocks,
        api: "messages",
        provider: pick(PROVIDERS, variant),
        model: `model-${variant % 3}`,
        usage: USAGE,
        stopReason: "stop",
        timestamp: ms,
      };
    case "toolResult":
      return { role, toolCallId: "t1", toolName: "bash", content, isError: false, timestamp: ms };
    default:
      return { role, content, timestamp: ms };
  }
}

/**
 * Builds one entry. `earlier` are the ids before it in file order, `path` the ids of its
 * parent's path (valid variant only; compactions keep an entry of it).
 */
export function makeEntry(
  spec: BodySpec,
  id: string,
  parentId: string | null | undefined,
  earlier: readonly string[],
  path: readonly string[],
): SessionEntry {
  const timestamp = TIMESTAMPS[spec.ts] as string;
  const ms = Number.isNaN(Date.parse(timestamp)) ? 0 : Date.parse(timestamp);
  const base = { id, parentId, timestamp };
  const text = `${spec.kind} ${id} ${spec.ref}`;
  const target = earlier.length > 0 && spec.ref % 4 !== 0 ? pick(earlier, spec.ref) : MISSING_ID;
  const v = spec.variant;
  let body: Record<string, unknown>;
  switch (spec.kind) {
    case "user":
    case "assistant":
    case "toolResult":
    case "system":
      body = { type: "message", message: message(spec.kind, text, v, ms) };
      break;
    case "thinking_level_change":
      body = { type: spec.kind, thinkingLevel: pick(["off", "low", "high"], v) };
      break;
    case "model_change":
      body = { type: spec.kind, provider: pick(PROVIDERS, v), modelId: `m${spec.ref % 3}` };
      break;
    case "compaction": {
      const own = spec.ref % 3 === 1;
      const onPath = path.length > 0 && spec.ref % 3 === 0;
      const kept = own ? id : onPath ? pick(path, spec.ref) : target;
      body = { type: spec.kind, summary: `S ${id}`, firstKeptEntryId: kept, tokensBefore: 100 };
      if (v === 4) body.systemMessage = { role: "system", content: "prompt", timestamp: ms };
      break;
    }
    case "branch_summary":
      body = { type: spec.kind, fromId: target, summary: v < 2 ? "" : `B ${id}` };
      break;
    case "custom":
      body = { type: spec.kind, customType: "ext", data: { n: spec.ref } };
      break;
    case "custom_message":
      body = {
        type: spec.kind,
        customType: "ext",
        content: v % 2 ? text : [{ type: "text", text }],
      };
      Object.assign(body, { display: v > 2, details: { v } });
      break;
    case "label":
      body = {
        type: spec.kind,
        targetId: target,
        label: pick(["L1", undefined, "", null, "L2"], v),
      };
      break;
    case "session_info":
      body = { type: spec.kind, name: pick(["  name one ", "", " ", undefined, "two"], v) };
      break;
    case "context_edit":
      body = {
        type: spec.kind,
        targetId: target,
        replacement: v < 2 ? null : { content: v % 2 ? `edited ${v}` : [{ type: "text", text }] },
      };
      break;
    default:
      body = { type: "future_thing", payload: { ref: spec.ref } };
  }
  return { ...body, ...base } as unknown as SessionEntry;
}

/** Parent choice of the valid variant: 0 = the previous entry (a chain), k = k-th earlier. */
const parentPick = fc.oneof(
  { weight: 5, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.nat(40) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const validId = fc.oneof(
  { weight: 20, arbitrary: fc.stringMatching(/^[a-f0-9]{1,3}$/) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "root") },
);

/** A valid log: unique ids; each parent is null or an earlier id. */
export function validLog(maxLength = 30): fc.Arbitrary<SessionEntry[]> {
  const item = fc.record({ id: validId, parent: parentPick, body: bodySpec });
  return fc.uniqueArray(item, { selector: (x) => x.id, maxLength, size: "medium" }).map((items) => {
    const out: SessionEntry[] = [];
    const paths = new Map<string, readonly string[]>();
    items.forEach((x, i) => {
      const parent =
        x.parent === null || i === 0 ? null : (out[i - 1 - (x.parent % i)]?.id ?? null);
      const path = parent === null ? [] : (paths.get(parent) ?? []);
      out.push(
        makeEntry(
          x.body,
          x.id,
          parent,
          out.map((e) => e.id),
          path,
        ),
      );
      paths.set(x.id, [...path, x.id]);
    });
    return out;
  });
}

/** Ids of the damaged variant without duplicates: parents still dangle, self-refer and cycle. */
export const UNIQUE_DAMAGED_IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"] as const;

/** Every id a generated log may hold, plus one it never holds: what the queries are asked about. */
export const ID_POOL: readonly string[] = [
  ...new Set<string>([...DAMAGED_IDS, ...UNIQUE_DAMAGED_IDS, MISSING_ID]),
];

/**
 * A damaged log: dangling parents, self-parents, cycles, a missing parentId and (unless
 * `unique`) duplicate ids. Parents may name later entries.
 */
export function damagedLog(
  unique = false,
  maxLength = 20,
  extraIds: readonly string[] = [],
): fc.Arbitrary<SessionEntry[]> {
  const pool: readonly string[] = [...(unique ? UNIQUE_DAMAGED_IDS : DAMAGED_IDS), ...extraIds];
  const parent = fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom<string | null>(...pool) },
    { weight: 1, arbitrary: fc.constantFrom<string | null | undefined>(MISSING_ID, undefined) },
  );
  const item = fc.record({ id: fc.constantFrom(...pool), parent, body: bodySpec });
  const items = unique
    ? fc.uniqueArray(item, { selector: (x) => x.id, maxLength, size: "medium" })
    : fc.array(item, { maxLength, size: "medium" });
  return items.map((xs) => xs.map((x) => makeEntry(x.body, x.id, x.parent, pool, [])));
}

/** Either variant. */
export const anyLog: fc.Arbitrary<SessionEntry[]> = fc.oneof(
  validLog(),
  damagedLog(),
  damagedLog(true),
);
