/**
 * The operations of the differential check: every SessionManager call as plain data (so
 * fast-check can print and shrink it), resolved against the canonical id list when it runs
 * and applied to both managers. Targets are picked by index, never by raw id, because ids
 * are random.
 */
import type { EntryTypeTable } from "@pi-sessions/core";
import fc from "fast-check";
import type { SessionManagerLike } from "../model/api.js";
import * as A from "../model/args.js";
import type { IdMap } from "./id-map.js";
import { attempt, expectSame, expectSameView, type Outcome, observe } from "./observe.js";

/**
 * How an op names an entry: by index into every id created so far (including ids dropped by
 * `createBranchedSession`, which are then unknown), by index into the current branch, an
 * id that never existed, or (compaction only) a literal `""` / `undefined`.
 */
export type OpTarget =
  | { pick: number }
  | { onBranch: number }
  | { unknown: string }
  | { literal: "" | undefined };

type Extras = { details?: unknown; fromHook?: boolean; usage?: Record<string, unknown> };

/** One API call. `dt` advances the shared frozen clock first (it may go backwards). */
export type DifferentialOp = { dt: number } & (
  | { op: "appendMessage"; message: Record<string, unknown> }
  | { op: "appendThinkingLevelChange"; level: string }
  | { op: "appendModelChange"; provider: string; modelId: string }
  | {
      op: "appendCompaction";
      summary: string;
      keep: OpTarget | null;
      tokens: number;
      extras: Extras;
    }
  | { op: "appendCustomEntry"; customType: string; data: unknown }
  | {
      op: "appendCustomMessageEntry";
      customType: string;
      content: unknown;
      display: boolean;
      details: unknown;
    }
  | { op: "appendSessionInfo"; name: string }
  | { op: "appendLabelChange"; target: OpTarget; label: string | null | undefined }
  | {
      op: "appendUsage";
      kind: string;
      provider: string;
      model: string;
      usage: Record<string, unknown>;
      note?: string;
    }
  | { op: "appendContextEdit"; target: OpTarget; replacement: unknown }
  | { op: "branch"; target: OpTarget }
  | { op: "resetLeaf" }
  | { op: "branchWithSummary"; target: OpTarget | null; summary: string; extras: Extras }
  | { op: "createBranchedSession"; target: OpTarget }
);

const target: fc.Arbitrary<OpTarget> = A.targetArb;
const dt = fc.constantFrom(0, 1, 1, 1, 250, 60_000, -1, -5_000);
const with_ = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<DifferentialOp> =>
  fc.tuple(dt, arb).map(([d, o]) => ({ dt: d, ...o }) as unknown as DifferentialOp);

type WeightedOp = { weight: number; arbitrary: fc.Arbitrary<DifferentialOp> };

/**
 * The call that appends each built-in entry type, with its weight (`satisfies`: a new type
 * must say how the differential check appends it); appends dominate so sessions grow.
 */
const APPEND_OPS = {
  message: {
    weight: 8,
    arbitrary: with_(fc.record({ op: fc.constant("appendMessage"), message: A.messageArb })),
  },
  thinking_level_change: {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendThinkingLevelChange"),
        level: fc.constantFrom("off", "high", ""),
      }),
    ),
  },
  model_change: {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendModelChange"),
        provider: fc.constantFrom("openai", "anthropic"),
        modelId: fc.constantFrom("m1", "m2"),
      }),
    ),
  },
  compaction: {
    weight: 2,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCompaction"),
        summary: A.textArb,
        keep: fc.oneof(
          { arbitrary: target, weight: 8 },
          { arbitrary: fc.constant(null), weight: 2 },
          { arbitrary: fc.record({ literal: fc.constantFrom("" as const, undefined) }), weight: 1 },
        ),
        tokens: fc.nat(99_999),
        extras: A.extrasArb,
      }),
    ),
  },
  branch_summary: {
    weight: 2,
    arbitrary: with_(
      fc.record({
        op: fc.constant("branchWithSummary"),
        target: fc.option(target, { nil: null }),
        summary: A.textArb,
        extras: A.extrasArb,
      }),
    ),
  },
  custom: {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCustomEntry"),
        customType: fc.constantFrom("ext", "x"),
        data: A.dataArb,
      }),
    ),
  },
  custom_message: {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCustomMessageEntry"),
        customType: fc.constantFrom("ext", "x"),
        content: A.customContentArb,
        display: fc.boolean(),
        details: A.dataArb,
      }),
    ),
  },
  label: {
    weight: 2,
    arbitrary: with_(
      fc.record({ op: fc.constant("appendLabelChange"), target, label: A.labelArb }),
    ),
  },
  session_info: {
    weight: 1,
    arbitrary: with_(fc.record({ op: fc.constant("appendSessionInfo"), name: A.sessionNameArb })),
  },
  usage: {
    weight: 1,
    arbitrary: with_(
      fc.record(
        {
          op: fc.constant("appendUsage"),
          kind: fc.constantFrom("cache_warm", "future-kind"),
          provider: fc.constantFrom("openai", "anthropic"),
          model: fc.constantFrom("m1", "m2"),
          usage: A.usageArb,
          note: fc.constantFrom(undefined, "", "warm"),
        },
        { requiredKeys: ["op", "kind", "provider", "model", "usage"] },
      ),
    ),
  },
  context_edit: {
    weight: 2,
    arbitrary: with_(
      fc.record({ op: fc.constant("appendContextEdit"), target, replacement: A.replacementArb }),
    ),
  },
} satisfies EntryTypeTable<WeightedOp>;

/** The calls that move the leaf or copy the session instead of appending one entry. */
const NAVIGATION_OPS: readonly WeightedOp[] = [
  { weight: 2, arbitrary: with_(fc.record({ op: fc.constant("branch"), target })) },
  { weight: 1, arbitrary: with_(fc.record({ op: fc.constant("resetLeaf") })) },
  { weight: 1, arbitrary: with_(fc.record({ op: fc.constant("createBranchedSession"), target })) },
];

/** Every operation with a weight: an append of each entry type, then the navigation calls. */
export const differentialOpArb: fc.Arbitrary<DifferentialOp> = fc.oneof(
  ...Object.values(APPEND_OPS),
  ...NAVIGATION_OPS,
);

/** Resolves a target to a canonical id (or the unknown id itself). */
function resolve(t: OpTarget, map: IdMap, branch: readonly string[]): string {
  if ("unknown" in t) return t.unknown;
  if ("literal" in t) return t.literal as string;
  const [list, i] =
    "pick" in t ? [map.all, t.pick] : [branch.length > 0 ? branch : map.all, t.onBranch];
  return list[i % list.length] ?? "missing1";
}

/** Applies `op` to one manager; `id` turns a canonical id into that side's raw id. */
function apply(
  sm: SessionManagerLike,
  op: DifferentialOp,
  id: (target: OpTarget) => string,
): unknown {
  const copy = <T>(v: T): T => structuredClone(v);
  switch (op.op) {
    case "appendMessage":
      return sm.appendMessage(copy(op.message));
    case "appendThinkingLevelChange":
      return sm.appendThinkingLevelChange(op.level);
    case "appendModelChange":
      return sm.appendModelChange(op.provider, op.modelId);
    case "appendCompaction": {
      const { details, fromHook, usage } = copy(op.extras);
      const keep =
        op.keep === null ? null : "literal" in op.keep ? (op.keep.literal as string) : id(op.keep);
      return sm.appendCompaction(op.summary, keep, op.tokens, details, fromHook, usage);
    }
    case "appendCustomEntry":
      return sm.appendCustomEntry(op.customType, copy(op.data));
    case "appendCustomMessageEntry": {
      const content = copy(op.content);
      return sm.appendCustomMessageEntry(op.customType, content, op.display, copy(op.details));
    }
    case "appendSessionInfo":
      return sm.appendSessionInfo(op.name);
    case "appendLabelChange":
      return sm.appendLabelChange(id(op.target), op.label);
    case "appendUsage":
      return sm.appendUsage(op.kind, op.provider, op.model, copy(op.usage), op.note);
    case "appendContextEdit":
      return sm.appendContextEdit(id(op.target), copy(op.replacement));
    case "branch":
      return sm.branch(id(op.target));
    case "resetLeaf":
      return sm.resetLeaf();
    case "branchWithSummary": {
      const { details, fromHook, usage } = copy(op.extras);
      const from = op.target === null ? null : id(op.target);
      return sm.branchWithSummary(from, op.summary, details, fromHook, usage);
    }
    case "createBranchedSession":
      return sm.createBranchedSession(id(op.target));
    default:
      // Compile-time exhaustiveness: every op above is applied.
      throw new Error(`unknown differential op ${(op satisfies never as DifferentialOp).op}`);
  }
}

/**
 * The two managers under comparison, the id map and the shared clock. `setClock` sets the
 * time both implementations read (a test freezes `Date`, e.g. vitest's `vi.setSystemTime`);
 * `clock` is the current time in ms, moved by each op's `dt` (sometimes backwards, so
 * getTree's timestamp sort is exercised).
 */
export interface DifferentialWorld {
  /** The implementation under test (any object with the reference's manager methods). */
  ours: object;
  /** What it is compared with, usually the reference's manager. */
  ref: object;
  map: IdMap;
  clock: number;
  setClock(ms: number): void;
}

/** Normalises an outcome so the two sides can be compared (ids canonical, entries as JSON). */
function outcomeView(map: IdMap, side: 0 | 1, o: Outcome): unknown {
  if (!o.ok) return { ok: false, error: map.message(side, o.error) };
  return {
    ok: true,
    value: typeof o.value === "string" ? map.canon(side, o.value) : map.norm(side, o.value),
  };
}

/**
 * Runs one op on both managers and asserts they agree: same outcome (return value or error
 * message) and the same observable state afterwards.
 */
export function differentialStep(
  w: DifferentialWorld,
  op: DifferentialOp,
  label: string,
  perId = true,
): void {
  w.clock += op.dt;
  w.setClock(w.clock);
  const branch = (w.ours as SessionManagerLike)
    .getBranch()
    .map((e) => String(w.map.canon(0, e.id)));
  const canonOf = (t: OpTarget) => resolve(t, w.map, branch);
  const a = attempt(() => apply(w.ours as SessionManagerLike, op, (t) => w.map.raw(0, canonOf(t))));
  const b = attempt(() => apply(w.ref as SessionManagerLike, op, (t) => w.map.raw(1, canonOf(t))));
  // Returned ids name the same new entry; appendUsage returns the entry itself.
  if (a.ok && b.ok) {
    const idOf = (v: unknown) =>
      typeof v === "string" ? v : (v as { id?: string } | undefined)?.id;
    const [x, y] = [idOf(a.value), idOf(b.value)];
    if (typeof x === "string" && typeof y === "string") w.map.pair(x, y);
  }
  w.map.pairByPosition(
    (w.ours as SessionManagerLike).getEntries(),
    (w.ref as SessionManagerLike).getEntries(),
  );
  expectSame(outcomeView(w.map, 0, a), outcomeView(w.map, 1, b), `${label} outcome`);
  expectSameView(
    w.map,
    observe(w.ours, w.map, 0, { perId }),
    observe(w.ref, w.map, 1, { perId }),
    `${label} state`,
  );
}
