/**
 * Valid session logs as trees (SPEC §3, §7): unique ids, every `parentId` null or an earlier
 * entry, compactions that keep an entry of their path, labels on existing entries, session
 * names, custom entries and custom messages, context edits on the active branch.
 *
 * A log is generated as one flat array of steps (parent choice, time step, entry spec) and
 * then built by a pure function, with no `chain`: fast-check shrinks it by dropping steps and
 * simplifying each one, so failures come down to a few entries. Ids and timestamps come from
 * generated numbers (a salt, a start time, per-step deltas), so a seed replays exactly.
 */
import type { SessionEntry } from "@pi-sessions/core";
import fc from "fast-check";
import { entryIdFor, type IdStyle, jsonValueArb } from "./common.js";
import { buildEntry } from "./entry-build.js";
import {
  type BodyOptions,
  type BodySpec,
  bodySpecArb,
  ENTRY_KINDS,
  type EntryKind,
} from "./entry-specs.js";
import { type HeaderOptions, sessionHeaderArb } from "./header.js";
import { type SessionLog, sessionToJsonl } from "./jsonl.js";

/**
 * How entries hang together. `linear`: each entry continues from the previous one (one
 * conversation, no branching). `bushy`: entries mostly continue from an arbitrary earlier
 * entry (many branches). `any`: mostly linear with occasional branches.
 */
export type TreeShape = "linear" | "bushy" | "any";

/** Options of {@link sessionLogArb}. */
export interface SessionLogOptions extends BodyOptions {
  /** Fewest entries (default 0). */
  minEntries?: number;
  /** Most entries (default 30). */
  maxEntries?: number;
  /**
   * fast-check size of the entry array (default: `"max"` when `maxEntries` is given, so the
   * whole range is used, else fast-check's default).
   */
  size?: fc.SizeForArbitrary;
  /** Tree shape (default `"any"`). */
  shape?: TreeShape;
  /** Allow several roots (entries with `parentId: null` after a `resetLeaf`); default false. */
  multiRoot?: boolean;
  /** Entry types to generate (default: every built-in type). */
  kinds?: readonly EntryKind[];
  /** Also generate entries of unknown types (default false, SPEC §2.6). */
  unknownTypes?: boolean;
  /** Also add an unknown field `x_extra` to some entries and the header (default false). */
  unknownFields?: boolean;
  /** How ids are spelled (default `"hex8"`). */
  ids?: IdStyle;
  /**
   * Let timestamps go backwards between entries, as a skewed clock does (default false:
   * non-decreasing, with ties, which exercise the stable child order of SPEC §7.8).
   */
  clockSkew?: boolean;
  /** Header options (default: version 3). */
  header?: HeaderOptions;
}

/** The parent of a step: the previous entry, a new root, or the entry `n` steps further back. */
export type ParentSpec = "leaf" | "root" | number;

/** One step of a generated log, before it is built. */
export interface LogStep {
  readonly parent: ParentSpec;
  /** Milliseconds after the previous entry (negative only with `clockSkew`). */
  readonly delta: number;
  readonly body: BodySpec;
  /** Value of an unknown field, when `unknownFields` is on. */
  readonly extra?: unknown;
}

function parentSpecArb(shape: TreeShape, multiRoot: boolean): fc.Arbitrary<ParentSpec> {
  const weights: Record<TreeShape, [leaf: number, earlier: number]> = {
    linear: [1, 0],
    bushy: [1, 3],
    any: [6, 2],
  };
  const [leaf, earlier] = weights[shape];
  const arbs: fc.WeightedArbitrary<ParentSpec>[] = [
    { weight: leaf, arbitrary: fc.constant("leaf") },
  ];
  if (earlier > 0) arbs.push({ weight: earlier, arbitrary: fc.nat() });
  if (multiRoot) arbs.push({ weight: 1, arbitrary: fc.constant("root") });
  return fc.oneof(...arbs);
}

/** The step arbitrary of a log with these options. */
export function logStepArb(options: SessionLogOptions = {}): fc.Arbitrary<LogStep> {
  const kinds: EntryKind[] = [...(options.kinds ?? ENTRY_KINDS)];
  if (options.unknownTypes && !kinds.includes("unknown")) kinds.push("unknown");
  const delta = options.clockSkew
    ? fc.integer({ min: -5_000, max: 60_000 })
    : fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 4, arbitrary: fc.nat(60_000) });
  const model = {
    parent: parentSpecArb(options.shape ?? "any", options.multiRoot ?? false),
    delta,
    body: bodySpecArb(kinds, options),
  };
  if (!options.unknownFields) return fc.record(model, { noNullPrototype: true });
  return fc.record(
    { ...model, extra: jsonValueArb },
    { requiredKeys: ["parent", "delta", "body"], noNullPrototype: true },
  );
}

/**
 * Builds the entries of a log from its steps (pure; exported so other generators can reuse
 * the same construction). Entry `i` gets id `entryIdFor(i, salt, style)` and time
 * `startMs + Σ delta`.
 */
export function buildLogEntries(
  steps: readonly LogStep[],
  startMs: number,
  salt: number,
  style: IdStyle = "hex8",
): SessionEntry[] {
  const ids = steps.map((_, i) => entryIdFor(i, salt, style));
  const parentIndex: number[] = [];
  const entries: SessionEntry[] = [];
  let ms = startMs;
  steps.forEach((step, i) => {
    ms += step.delta;
    let p = -1;
    if (i > 0 && step.parent === "leaf") p = i - 1;
    else if (i > 0 && typeof step.parent === "number") p = i - 1 - (step.parent % i);
    parentIndex.push(p);
    const path = (): SessionEntry[] => {
      const out: SessionEntry[] = [];
      for (let q = p; q >= 0; q = parentIndex[q] as number) out.push(entries[q] as SessionEntry);
      return out.reverse();
    };
    const entry = buildEntry(step.body, {
      id: ids[i] as string,
      parentId: p >= 0 ? (ids[p] as string) : null,
      ms,
      ids,
      earlierCount: i,
      path,
      previousId: i > 0 ? (ids[i - 1] as string) : null,
      extra: step.extra,
    });
    entries.push(entry);
  });
  return entries;
}

/**
 * A valid session log (header, entries, JSONL text), sized and shaped by `options`. Every entry
 * decodes with core's `decodeEntry`; the whole log satisfies invariants I1–I4 (header, ids and
 * parents, branches, tree).
 */
export function sessionLogArb(options: SessionLogOptions = {}): fc.Arbitrary<SessionLog> {
  const maxLength = options.maxEntries ?? 30;
  const size = options.size ?? (options.maxEntries !== undefined ? "max" : undefined);
  const steps = fc.array(logStepArb(options), {
    minLength: options.minEntries ?? 0,
    maxLength,
    ...(size ? { size } : {}),
  });
  const header = sessionHeaderArb({
    unknownFields: options.unknownFields,
    ...options.header,
  });
  return fc.tuple(header, fc.nat(), steps).map(([h, salt, s]) => {
    const entries = buildLogEntries(s, Date.parse(h.timestamp), salt, options.ids);
    const last = entries[entries.length - 1];
    return { header: h, entries, jsonl: sessionToJsonl(h, entries), leafId: last ? last.id : null };
  });
}

/** Just the entries of {@link sessionLogArb}. */
export function sessionEntriesArb(options: SessionLogOptions = {}): fc.Arbitrary<SessionEntry[]> {
  return sessionLogArb(options).map((log) => log.entries);
}

/** Just the JSONL text of {@link sessionLogArb}. */
export function sessionJsonlArb(options: SessionLogOptions = {}): fc.Arbitrary<string> {
  return sessionLogArb(options).map((log) => log.jsonl);
}
