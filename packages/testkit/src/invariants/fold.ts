/**
 * I6, fold laws: folding a log in two parts equals folding it at once (also when the first
 * part's state is looked at, and when it is continued twice), and a projection's incremental
 * state equals its replay. Works for any `{ init, apply }` fold — core's `Projection`s, a
 * plugin's, or a whole session state (`foldEntry`).
 */
import { canonicalJson } from "./json.js";
import { type EntryView, guard, type Violation, violation } from "./types.js";

/** What `apply` may read besides the entry: its position and the entries folded before it. */
export interface FoldContextLike {
  readonly position: number;
  getEntry(id: string): EntryView | undefined;
}

/** A fold of entries into a state (core's `Projection` has this shape). */
export interface FoldLike<S> {
  readonly name?: string;
  init(): S;
  apply(state: S, entry: EntryView, ctx: FoldContextLike): S;
}

/** Options of {@link checkI6FoldLaws}. */
export interface FoldCheckOptions<S> {
  /**
   * What a caller can observe of a state, compared as canonical JSON (default: the state
   * itself). States that share mutable stores across snapshots need a real observation.
   */
  observe?: (state: S) => unknown;
  /** The fold's batch replay (e.g. core's `replayState`); compared with folding one by one. */
  replay?: (entries: readonly EntryView[]) => S;
  /** Split points to test (default: all when there are ≤ 10 entries, else 11 spread out). */
  splits?: readonly number[];
}

/** Folds `entries[from..to)` onto `state`, with lookups over every entry before each one. */
function foldRange<S>(
  fold: FoldLike<S>,
  state: S,
  entries: readonly EntryView[],
  from: number,
  to: number,
): S {
  const byId = new Map<string, EntryView>();
  for (let i = 0; i < from; i++) byId.set((entries[i] as EntryView).id, entries[i] as EntryView);
  let s = state;
  for (let i = from; i < to; i++) {
    const entry = entries[i] as EntryView;
    s = fold.apply(s, entry, { position: i, getEntry: (id) => byId.get(id) });
    byId.set(entry.id, entry);
  }
  return s;
}

/** Every split point of a short log; 11 spread-out ones (ends included) of a longer one. */
function defaultSplits(n: number): number[] {
  if (n <= 10) return Array.from({ length: n + 1 }, (_, i) => i);
  return [...new Set(Array.from({ length: 11 }, (_, i) => Math.round((i * n) / 10)))];
}

/**
 * I6 for one fold over one log. For each split point k: fold `[0, k)`, observe that state,
 * continue with `[k, n)` twice from it; both must observe like folding `[0, n)` at once, and
 * the state at k must still observe as before (continuing must not change it). With
 * `replay`, the replay of `[0, k)` must observe like the fold of `[0, k)`.
 */
export function checkI6FoldLaws<S>(
  fold: FoldLike<S>,
  entries: readonly EntryView[],
  options: FoldCheckOptions<S> = {},
): Violation[] {
  const name = fold.name ?? "fold";
  const observe = (s: S): string => canonicalJson((options.observe ?? ((x: S) => x))(s));
  return guard("I6", (out) => {
    const n = entries.length;
    const whole = observe(foldRange(fold, fold.init(), entries, 0, n));
    for (const k of options.splits ?? defaultSplits(n)) {
      const head = foldRange(fold, fold.init(), entries, 0, k);
      const before = observe(head);
      const once = observe(foldRange(fold, head, entries, k, n));
      const twice = observe(foldRange(fold, head, entries, k, n));
      if (once !== whole) {
        out.push(
          violation(
            "I6",
            `${name}: folding [0,${k}) then [${k},${n}) differs from folding all at once`,
          ),
        );
      }
      if (twice !== whole) {
        out.push(
          violation(
            "I6",
            `${name}: continuing the state at ${k} a second time gives another result`,
          ),
        );
      }
      if (observe(head) !== before) {
        out.push(violation("I6", `${name}: continuing from the state at ${k} changed that state`));
      }
      if (options.replay && observe(options.replay(entries.slice(0, k))) !== before) {
        out.push(
          violation(
            "I6",
            `${name}: the replay of the first ${k} entries differs from folding them`,
          ),
        );
      }
      if (out.length > 0) return; // one split is enough to show a broken law
    }
  });
}
