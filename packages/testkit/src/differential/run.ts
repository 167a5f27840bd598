/**
 * Whole differential runs: a sequence of operations on two managers with everything compared
 * after each one, and the free context functions of two session modules on each side's own
 * entries. Any implementation can be checked against the reference this way (or two
 * versions of one against each other); the caller builds the two managers and freezes the
 * clock both read.
 */
import type { SessionManagerLike } from "../api-calls/manager-api.js";
import { expectSameModuloIds, expectSameView, observe } from "./observe.js";
import { type DifferentialOp, type DifferentialWorld, differentialStep } from "./ops.js";

/**
 * The free context functions `(entries, leafId?)` of a session module (SPEC §8), as methods so
 * a module typed with its own entry types (core's, say) fits.
 */
export interface FreeContextFunctions {
  buildSessionContext(entries: readonly unknown[], leafId?: string | null): unknown;
  buildSessionProjection(entries: readonly unknown[], leafId?: string | null): unknown;
  buildContextEntries(entries: readonly unknown[], leafId?: string | null): unknown;
}

/**
 * The free functions of both modules on each side's own entry array, at the leaf undefined,
 * null, an unknown id and every known id: context, projection and context entries agree.
 */
export function compareFreeFunctions(
  w: DifferentialWorld,
  ours: FreeContextFunctions,
  theirs: FreeContextFunctions,
): void {
  const a = (w.ours as SessionManagerLike).getEntries();
  const b = (w.ref as SessionManagerLike).getEntries();
  const leaves: (string | null | undefined)[] = [undefined, null, "missing1", ...w.map.all];
  for (const leaf of leaves) {
    const [x, y] =
      typeof leaf === "string" ? [w.map.raw(0, leaf), w.map.raw(1, leaf)] : [leaf, leaf];
    expectSameModuloIds(
      w.map,
      {
        context: ours.buildSessionContext(a, x),
        projection: ours.buildSessionProjection(a, x),
        entries: ours.buildContextEntries(a, x),
      },
      {
        context: theirs.buildSessionContext(b, y),
        projection: theirs.buildSessionProjection(b, y),
        entries: theirs.buildContextEntries(b, y),
      },
      `free functions at leaf ${String(leaf)}`,
    );
  }
}

/**
 * Runs `ops` on both managers of `w`: the initial states must agree, then after every op the
 * outcome (return value or thrown message) and everything observable (every id queried
 * unless `perId` is false). Throws a `DifferentialMismatch` at the first disagreement.
 */
export function runDifferentialOps(
  w: DifferentialWorld,
  ops: readonly DifferentialOp[],
  options: { perId?: boolean; label?: string } = {},
): void {
  const label = options.label ? `${options.label} ` : "";
  expectSameView(w.map, observe(w.ours, w.map, 0), observe(w.ref, w.map, 1), `${label}initial`);
  ops.forEach((op, i) => {
    differentialStep(w, op, `${label}op #${i} ${op.op}`, options.perId ?? true);
  });
}
