/**
 * I6 fold laws (DESIGN §3 rule 5, §4): folding a log in two parts — with or without queries
 * in between, from a fold or from a replay (a load) — answers every query like folding it at
 * once and like `replayState`; each built-in projection's incremental state equals
 * `replayProjection`; extra projections see the same fold context on every path.
 */
import {
  buildSessionContext,
  defineProjection,
  foldEntries,
  labelOfId,
  nameOf,
  projectionState,
  replayProjection,
  replayState,
  type SessionEntry,
  type SessionState,
} from "@pi-sessions/core";
import {
  type ContextCache,
  contextOfSummary,
  contextProjection,
  type EntryLog,
  initialState,
  type LabelIndex,
  labelOf,
  labelsProjection,
  leafSummary,
  logFromEntries,
  type PathSummary,
  pathPositions,
  positionOf,
  replaySlots,
  resolveLabels,
  type SessionNameState,
  sessionNameOf,
  sessionNameProjection,
  summarizePath,
  withLeaf,
} from "@pi-sessions/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { anyLog, HEADER, ID_POOL } from "./arbitraries.js";
import { answers, indexById, labelOracle, nameOracle, summaryAnswers } from "./oracles.js";

const RUNS = runs(300);

/** A log, a split point, and whether to query the state between the two parts. */
const splitLog = fc.tuple(anyLog, fc.nat(), fc.boolean()).map(([entries, k, query]) => {
  const at = entries.length === 0 ? 0 : k % (entries.length + 1);
  return { entries, a: entries.slice(0, at), b: entries.slice(at), query };
});

/** Answers of the state plus the context at every indexed leaf. */
function fullAnswers(state: SessionState, entries: readonly SessionEntry[]): unknown {
  const ids = [...indexById(entries).keys()];
  return {
    answers: answers(state, ID_POOL),
    contexts: ids.map((id) =>
      summaryAnswers(state.log, leafSummary(withLeaf(state, id)) as PathSummary),
    ),
    nullLeaf: summaryAnswers(state.log, leafSummary(withLeaf(state, null)) as PathSummary),
  };
}

/**
 * What the context summary a cache (of a fold over `log`) stands for answers, computing it when
 * the cache left it stale.
 */
function effectiveAnswers(cache: ContextCache, log: EntryLog): unknown {
  const tip = cache.tip;
  const pos = tip ? positionOf(log, tip.id) : -1;
  const fresh = summaryAnswers(log, summarizePath(log, pos < 0 ? [] : pathPositions(log, pos)));
  if (cache.summary) expect(summaryAnswers(log, cache.summary)).toEqual(fresh);
  return fresh;
}

/** A projection that records what its fold context shows it, to compare the fold paths. */
const probe = defineProjection<readonly unknown[]>({
  name: "probe",
  init: () => [],
  apply: (seen, entry, ctx) => [
    ...seen,
    [
      ctx.position,
      entry.id,
      ctx.getEntry(entry.id)?.timestamp ?? null,
      typeof entry.parentId === "string" ? (ctx.getEntry(entry.parentId)?.type ?? null) : null,
    ],
  ],
});

describe("I6: fold laws", () => {
  it(`two-part folds answer like one fold and like replayState (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(splitLog, ({ entries, a, b, query }) => {
        const init = initialState(HEADER);
        const mid = foldEntries(init, a);
        if (query) answers(mid);
        const loaded = replayState(HEADER, a);
        if (query) answers(loaded);
        const once = fullAnswers(foldEntries(init, entries), entries);
        expect(fullAnswers(foldEntries(mid, b), entries)).toEqual(once);
        expect(fullAnswers(foldEntries(loaded, b), entries)).toEqual(once);
        expect(fullAnswers(replayState(HEADER, entries), entries)).toEqual(once);
      }),
      params(RUNS),
    );
  });

  it(`the answers match the free functions and SPEC §7.10–§7.11 (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(splitLog, ({ entries, a, b }) => {
        const state = foldEntries(replayState(HEADER, a), b);
        expect(nameOf(state)).toBe(nameOracle(entries));
        const labels = labelOracle(entries);
        expect(
          [...resolveLabels(projectionState(state, "labels") as LabelIndex)].map(([id, l]) => [
            id,
            [l.label, l.timestamp],
          ]),
        ).toEqual([...labels]);
        for (const id of ID_POOL) expect(labelOfId(state, id)).toBe(labels.get(id)?.[0]);
        for (const id of [...indexById(entries).keys(), null]) {
          const s = leafSummary(withLeaf(state, id)) as PathSummary;
          expect(contextOfSummary(state.log, s)).toEqual(buildSessionContext(entries, id));
        }
      }),
      params(RUNS),
    );
  });

  it(`built-in projections: incremental state equals replayProjection (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(splitLog, ({ entries, a, b, query }) => {
        const mid = foldEntries(initialState(HEADER), a);
        if (query) leafSummary(mid) as PathSummary;
        const inc = foldEntries(mid, b);

        const labels = replayProjection(labelsProjection, entries);
        expect([...resolveLabels(projectionState(inc, "labels") as LabelIndex)]).toEqual([
          ...resolveLabels(labels),
        ]);
        for (const id of ID_POOL)
          expect(labelOf(projectionState(inc, "labels") as LabelIndex, id)).toEqual(
            labelOf(labels, id),
          );

        const name = replayProjection(sessionNameProjection, entries);
        expect(projectionState(inc, "sessionName") as SessionNameState).toEqual(name);
        expect(sessionNameOf(projectionState(inc, "sessionName") as SessionNameState)).toBe(
          sessionNameOf(name),
        );

        const log = logFromEntries(entries.slice());
        const [slot] = replaySlots([contextProjection as never], log);
        const context = slot?.state as ContextCache;
        const incremental = projectionState(inc, "context") as ContextCache;
        expect(incremental.tip?.id).toBe(context.tip?.id);
        expect(effectiveAnswers(incremental, inc.log)).toEqual(effectiveAnswers(context, log));
      }),
      params(RUNS),
    );
  });

  it(`extra projections see the same fold on every path (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(splitLog, ({ entries, a, b }) => {
        const expected = replayProjection(probe, entries);
        const folded = foldEntries(foldEntries(initialState(HEADER, [probe]), a), b);
        const loaded = foldEntries(replayState(HEADER, a, [probe]), b);
        expect(projectionState(folded, "probe")).toEqual(expected);
        expect(projectionState(loaded, "probe")).toEqual(expected);
        expect(projectionState(replayState(HEADER, entries, [probe]), "probe")).toEqual(expected);
      }),
      params(RUNS),
    );
  });
});
