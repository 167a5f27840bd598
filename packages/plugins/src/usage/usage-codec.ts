/**
 * The saved form of the {@link usageTotals} projection's state (SPEC §14 F2): its rule version
 * and its encoding, next to the rule, so a store that keeps the state across runs (the session
 * index) refolds a state saved under another version instead of reusing it, and never reads
 * inside the state itself. Only types are imported: the version is read without loading the rule.
 */

import type { FoldCodec } from "@pi-sessions/core/internal";
import { USAGE_TOTALS_PROJECTION_NAME } from "./usage-name.js";
import type { UsageTotalsState } from "./usage-projection.js";
import type { UsageDiagnostic } from "./usage-records.js";

/** The saved JSON: the state without its caches of queries. */
interface SavedUsage {
  readonly tree: UsageTotalsState["tree"];
  readonly count: number;
  readonly reusedIds: boolean;
  readonly leaf: UsageTotalsState["leaf"] | null;
  readonly diagnostics: readonly UsageDiagnostic[];
}

/**
 * The usage-totals rule's version and state encoding. Bump `version` with any change to what
 * the projection sums or keeps. `encode` gives `null` when JSON cannot hold the state exactly
 * (a sum overflowed to ±Infinity): such a state is refolded rather than kept wrong.
 */
export const usageTotalsCodec: FoldCodec<UsageTotalsState> = {
  name: USAGE_TOTALS_PROJECTION_NAME,
  version: 1,
  encode(state) {
    let exact = true;
    const saved: SavedUsage = {
      tree: state.tree,
      count: state.count,
      reusedIds: state.reusedIds,
      leaf: state.leaf ?? null,
      diagnostics: state.diagnosticLog.slice(0, state.diagnosticCount),
    };
    const json = JSON.stringify(saved, (_key, value: unknown) => {
      if (typeof value === "number" && !Number.isFinite(value)) exact = false;
      return value;
    });
    return exact ? json : null;
  },
  decode(text) {
    const saved = JSON.parse(text) as SavedUsage;
    return {
      tree: saved.tree,
      count: saved.count,
      reusedIds: saved.reusedIds,
      leaf: saved.leaf ?? undefined,
      memo: { folded: saved.count, last: undefined },
      diagnosticLog: [...saved.diagnostics],
      diagnosticCount: saved.diagnostics.length,
    };
  },
};
