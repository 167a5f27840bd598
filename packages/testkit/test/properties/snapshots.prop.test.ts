/**
 * I9 (DESIGN §3 rule 6, §4): a `SessionState` taken earlier answers every query the same after
 * later operations — appends, branches, resets, forks of the tree — and folding onto an old
 * state (a fork of history) changes neither the newer states nor the old one.
 */
import {
  buildSessionContext,
  replayState,
  type SessionEntry,
  type SessionState,
} from "@pi-sessions/core";
import { entriesOf, foldEntry, withLeaf } from "@pi-sessions/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { bodySpec, makeEntry, validLog } from "./arbitraries.js";
import { applyOp, envSpec, loadManager, newManager, ops } from "./operations.js";
import { answers } from "./oracles.js";

const RUNS = runs(300);

/** JSON of every answer: what a caller could have recorded from the snapshot. */
const snapshot = (s: SessionState): string => JSON.stringify(answers(s));

/** The answers a state must give: a fresh replay of its entries, at its leaf. */
const replayed = (s: SessionState, entries: readonly SessionEntry[]): unknown =>
  answers(withLeaf(replayState(s.header, entries), s.leafId));

/** Entries folded onto an old state: ids fresh or reused (also ids appended after it). */
const forkSpec = fc.array(
  fc.record({
    body: bodySpec,
    id: fc.oneof(fc.constant(-1), fc.nat(60)),
    parent: fc.oneof(fc.constant(-1), fc.constant(null), fc.nat(60)),
    query: fc.boolean(),
  }),
  { minLength: 1, maxLength: 8 },
);
type ForkSpec = typeof forkSpec extends fc.Arbitrary<infer T> ? T : never;

function forkEntries(spec: ForkSpec, known: readonly string[], leaf: string | null) {
  const out: SessionEntry[] = [];
  const ids = [...known];
  let last = leaf;
  spec.forEach((x, i) => {
    const reuse = x.id >= 0 && ids.length > 0;
    const id = reuse ? (ids[x.id % ids.length] as string) : `fork${i}`;
    const parent =
      x.parent === -1 ? last : x.parent === null ? null : (ids[x.parent % ids.length] ?? null);
    out.push(makeEntry(x.body, id, parent, ids, []));
    ids.push(id);
    last = id;
  });
  return out;
}

describe("I9: snapshots taken before later operations are unchanged", () => {
  it(`an old state answers the same after more operations (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(envSpec, ops(15), ops(15), fc.boolean(), (env, first, then, early) => {
        const sm = newManager(env);
        for (const o of first) applyOp(sm, o);
        const old = sm.getState();
        const held = entriesOf(old);
        const before = early ? snapshot(old) : undefined;
        const mids: [SessionState, string][] = [];
        for (const o of then) {
          applyOp(sm, o);
          if (o.query) mids.push([sm.getState(), snapshot(sm.getState())]);
        }
        if (before !== undefined) expect(snapshot(old)).toBe(before);
        // Asked only now, the old state still answers like a replay of what it held.
        expect(answers(old)).toEqual(replayed(old, held));
        for (const [s, snap] of mids) expect(snapshot(s)).toBe(snap);
      }),
      params(RUNS),
    );
  });

  it(`folding onto an old state changes no other state (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(
        envSpec,
        validLog(10),
        ops(12),
        ops(12),
        forkSpec,
        forkSpec,
        (env, start, first, then, fork1, fork2) => {
          const sm = start.length > 0 ? loadManager(start, env) : newManager(env);
          for (const o of first) applyOp(sm, o);
          const old = sm.getState();
          const held = entriesOf(old);
          const oldSnap = snapshot(old);
          for (const o of then) applyOp(sm, o);
          const newer = sm.getState();
          const newSnap = snapshot(newer);
          const known = entriesOf(newer).map((e) => e.id);

          const forks: [SessionState, SessionEntry[]][] = [];
          for (const spec of [fork1, fork2]) {
            const entries = forkEntries(spec, known, old.leafId);
            let s = old;
            entries.forEach((e, i) => {
              s = foldEntry(s, e);
              if (spec[i]?.query) answers(s);
            });
            forks.push([s, [...held, ...entries]]);
          }
          expect(snapshot(newer)).toBe(newSnap);
          expect(snapshot(old)).toBe(oldSnap);
          for (const [s, entries] of forks) {
            expect(entriesOf(s)).toEqual(entries);
            expect(answers(s)).toEqual(replayed(s, entries));
          }

          // The manager carries on from its own state, untouched by the forks.
          for (const o of then) applyOp(sm, o);
          const leaf = sm.getLeafId();
          expect(sm.buildSessionContext()).toEqual(buildSessionContext(sm.getEntries(), leaf));
          expect(answers(sm.getState())).toEqual(replayed(sm.getState(), sm.getEntries()));
        },
      ),
      params(RUNS),
    );
  });
});
