/**
 * The command model of the conformance property: operations as plain data (so fast-check can
 * print and shrink them), resolved against the canonical id list at run time and applied to
 * both managers. Targets are picked by index, never by raw id, because ids are random.
 */
import type {
  AgentMessage,
  ContextEditEntry,
  ImageContent,
  TextContent,
  Usage,
} from "@pi-sessions/core";
import fc from "fast-check";
import { vi } from "vitest";
import * as A from "./arbitraries.js";
import {
  attempt,
  expectSame,
  expectSameView,
  type IdMap,
  type Outcome,
  observe,
} from "./compare.js";
import type { ManagerApi } from "./reference.js";

/**
 * How an op names an entry: by index into every id created so far (including ids dropped by
 * `createBranchedSession`, which are then unknown), by index into the current branch, an
 * id that never existed, or (compaction only) a literal `""` / `undefined`.
 */
export type Target =
  | { pick: number }
  | { onBranch: number }
  | { unknown: string }
  | { literal: "" | undefined };

type Extras = { details?: unknown; fromHook?: boolean; usage?: Record<string, unknown> };

/** One API call. `dt` advances the shared frozen clock first (it may go backwards). */
export type Op = { dt: number } & (
  | { op: "appendMessage"; message: Record<string, unknown> }
  | { op: "appendThinkingLevelChange"; level: string }
  | { op: "appendModelChange"; provider: string; modelId: string }
  | { op: "appendCompaction"; summary: string; keep: Target | null; tokens: number; extras: Extras }
  | { op: "appendCustomEntry"; customType: string; data: unknown }
  | {
      op: "appendCustomMessageEntry";
      customType: string;
      content: unknown;
      display: boolean;
      details: unknown;
    }
  | { op: "appendSessionInfo"; name: string }
  | { op: "appendLabelChange"; target: Target; label: string | null | undefined }
  | {
      op: "appendUsage";
      kind: string;
      provider: string;
      model: string;
      usage: Record<string, unknown>;
      note?: string;
    }
  | { op: "appendContextEdit"; target: Target; replacement: unknown }
  | { op: "branch"; target: Target }
  | { op: "resetLeaf" }
  | { op: "branchWithSummary"; target: Target | null; summary: string; extras: Extras }
  | { op: "createBranchedSession"; target: Target }
);

const target: fc.Arbitrary<Target> = fc.oneof(
  { arbitrary: fc.record({ pick: fc.nat(64) }), weight: 5 },
  { arbitrary: fc.record({ onBranch: fc.nat(64) }), weight: 3 },
  { arbitrary: fc.record({ unknown: fc.constantFrom("missing1", "no-such-entry") }), weight: 1 },
);
const dt = fc.constantFrom(0, 1, 1, 1, 250, 60_000, -1, -5_000);
const with_ = <T extends object>(arb: fc.Arbitrary<T>): fc.Arbitrary<Op> =>
  fc.tuple(dt, arb).map(([d, o]) => ({ dt: d, ...o }) as unknown as Op);

/** Every operation with a weight; appends dominate so sessions grow. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: with_(fc.record({ op: fc.constant("appendMessage"), message: A.message })),
  },
  {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendThinkingLevelChange"),
        level: fc.constantFrom("off", "high", ""),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendModelChange"),
        provider: fc.constantFrom("openai", "anthropic"),
        modelId: fc.constantFrom("m1", "m2"),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCompaction"),
        summary: A.text,
        keep: fc.oneof(
          { arbitrary: target, weight: 8 },
          { arbitrary: fc.constant(null), weight: 2 },
          { arbitrary: fc.record({ literal: fc.constantFrom("" as const, undefined) }), weight: 1 },
        ),
        tokens: fc.nat(99_999),
        extras: A.extras,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCustomEntry"),
        customType: fc.constantFrom("ext", "x"),
        data: A.data,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: with_(
      fc.record({
        op: fc.constant("appendCustomMessageEntry"),
        customType: fc.constantFrom("ext", "x"),
        content: A.customContent,
        display: fc.boolean(),
        details: A.data,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: with_(fc.record({ op: fc.constant("appendSessionInfo"), name: A.sessionName })),
  },
  {
    weight: 2,
    arbitrary: with_(fc.record({ op: fc.constant("appendLabelChange"), target, label: A.label })),
  },
  {
    weight: 1,
    arbitrary: with_(
      fc.record(
        {
          op: fc.constant("appendUsage"),
          kind: fc.constantFrom("cache_warm", "future-kind"),
          provider: fc.constantFrom("openai", "anthropic"),
          model: fc.constantFrom("m1", "m2"),
          usage: A.usage,
          note: fc.constantFrom(undefined, "", "warm"),
        },
        { requiredKeys: ["op", "kind", "provider", "model", "usage"] },
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: with_(
      fc.record({ op: fc.constant("appendContextEdit"), target, replacement: A.replacement }),
    ),
  },
  { weight: 2, arbitrary: with_(fc.record({ op: fc.constant("branch"), target })) },
  { weight: 1, arbitrary: with_(fc.record({ op: fc.constant("resetLeaf") })) },
  {
    weight: 2,
    arbitrary: with_(
      fc.record({
        op: fc.constant("branchWithSummary"),
        target: fc.option(target, { nil: null }),
        summary: A.text,
        extras: A.extras,
      }),
    ),
  },
  { weight: 1, arbitrary: with_(fc.record({ op: fc.constant("createBranchedSession"), target })) },
);

/** Resolves a target to a canonical id (or the unknown id itself). */
function resolve(t: Target, map: IdMap, branch: readonly string[]): string {
  if ("unknown" in t) return t.unknown;
  if ("literal" in t) return t.literal as string;
  const [list, i] =
    "pick" in t ? [map.all, t.pick] : [branch.length > 0 ? branch : map.all, t.onBranch];
  return list[i % list.length] ?? "missing1";
}

/** Applies `op` to one manager; `id` turns a canonical id into that side's raw id. */
function apply(sm: ManagerApi, op: Op, id: (target: Target) => string): unknown {
  const copy = <T>(v: T): T => structuredClone(v);
  switch (op.op) {
    case "appendMessage":
      return sm.appendMessage(copy(op.message) as unknown as AgentMessage);
    case "appendThinkingLevelChange":
      return sm.appendThinkingLevelChange(op.level);
    case "appendModelChange":
      return sm.appendModelChange(op.provider, op.modelId);
    case "appendCompaction": {
      const { details, fromHook, usage } = copy(op.extras);
      const keep =
        op.keep === null ? null : "literal" in op.keep ? (op.keep.literal as string) : id(op.keep);
      return sm.appendCompaction(
        op.summary,
        keep,
        op.tokens,
        details,
        fromHook,
        usage as Usage | undefined,
      );
    }
    case "appendCustomEntry":
      return sm.appendCustomEntry(op.customType, copy(op.data));
    case "appendCustomMessageEntry": {
      const content = copy(op.content) as string | (TextContent | ImageContent)[];
      return sm.appendCustomMessageEntry(op.customType, content, op.display, copy(op.details));
    }
    case "appendSessionInfo":
      return sm.appendSessionInfo(op.name);
    case "appendLabelChange":
      return sm.appendLabelChange(id(op.target), op.label as string | undefined);
    case "appendUsage":
      return sm.appendUsage(
        op.kind,
        op.provider,
        op.model,
        copy(op.usage) as unknown as Usage,
        op.note,
      );
    case "appendContextEdit":
      return sm.appendContextEdit(
        id(op.target),
        copy(op.replacement) as ContextEditEntry["replacement"],
      );
    case "branch":
      return sm.branch(id(op.target));
    case "resetLeaf":
      return sm.resetLeaf();
    case "branchWithSummary": {
      const { details, fromHook, usage } = copy(op.extras);
      const from = op.target === null ? null : id(op.target);
      return sm.branchWithSummary(from, op.summary, details, fromHook, usage as Usage | undefined);
    }
    case "createBranchedSession":
      return sm.createBranchedSession(id(op.target));
  }
}

/** The two managers under comparison, the id map and the frozen clock. */
export interface World {
  ours: ManagerApi;
  ref: ManagerApi;
  map: IdMap;
  clock: number;
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
export function step(w: World, op: Op, label: string, perId = true): void {
  w.clock += op.dt;
  vi.setSystemTime(w.clock);
  const branch = w.ours.getBranch().map((e) => String(w.map.canon(0, e.id)));
  const canonOf = (t: Target) => resolve(t, w.map, branch);
  const a = attempt(() => apply(w.ours, op, (t) => w.map.raw(0, canonOf(t))));
  const b = attempt(() => apply(w.ref, op, (t) => w.map.raw(1, canonOf(t))));
  // Returned ids name the same new entry; appendUsage returns the entry itself.
  if (a.ok && b.ok) {
    const idOf = (v: unknown) =>
      typeof v === "string" ? v : (v as { id?: string } | undefined)?.id;
    const [x, y] = [idOf(a.value), idOf(b.value)];
    if (typeof x === "string" && typeof y === "string") w.map.pair(x, y);
  }
  w.map.pairByPosition(w.ours.getEntries(), w.ref.getEntries());
  expectSame(outcomeView(w.map, 0, a), outcomeView(w.map, 1, b), `${label} outcome`);
  expectSameView(
    w.map,
    observe(w.ours, w.map, 0, { perId }),
    observe(w.ref, w.map, 1, { perId }),
    `${label} state`,
  );
}
