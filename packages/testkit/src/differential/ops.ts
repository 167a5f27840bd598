/**
 * The operations of the differential check: every call of `MANAGER_CALLS` as plain data (so
 * fast-check can print and shrink it) with a clock step, resolved against the canonical id list
 * when it runs and applied to both managers. Targets are picked by index, never by raw id,
 * because ids are random.
 */
import fc from "fast-check";
import type { Target } from "../api-calls/call-args.js";
import type { SessionManagerLike } from "../api-calls/manager-api.js";
import { type CallOf, invokeCall, weightedCalls } from "../api-calls/manager-calls.js";
import type { IdMap } from "./id-map.js";
import { attempt, expectSame, expectSameView, type Outcome, observe } from "./observe.js";

/**
 * One call of `MANAGER_CALLS` with its arguments. `dt` advances the shared frozen clock first
 * (it may go backwards).
 */
export type DifferentialOp = { dt: number } & CallOf;

const dt = fc.constantFrom(0, 1, 1, 1, 250, 60_000, -1, -5_000);

/** Every call of `MANAGER_CALLS`, as often as its weight says, with a clock step. */
export const differentialOpArb: fc.Arbitrary<DifferentialOp> = fc.oneof(
  ...weightedCalls((call) => call).map(({ weight, arbitrary }) => ({
    weight,
    arbitrary: fc.tuple(dt, arbitrary).map(([d, c]): DifferentialOp => ({ dt: d, ...c })),
  })),
);

/** Resolves a target to a canonical id (or the unknown id itself). */
function resolve(t: Target, map: IdMap, branch: readonly string[]): string {
  if ("unknown" in t) return t.unknown;
  const [list, i] =
    "pick" in t ? [map.all, t.pick] : [branch.length > 0 ? branch : map.all, t.onBranch];
  return list[i % list.length] ?? "missing1";
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
  const { dt: _, ...call } = op;
  const canonOf = (t: Target) => resolve(t, w.map, branch);
  const on = (side: 0 | 1, sm: object) =>
    attempt(() => invokeCall(sm as SessionManagerLike, call, (t) => w.map.raw(side, canonOf(t))));
  const [a, b] = [on(0, w.ours), on(1, w.ref)];
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
