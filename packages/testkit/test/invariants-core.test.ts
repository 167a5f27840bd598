/**
 * The invariant checkers pass on our SessionManager for random valid logs, legacy files and
 * damaged files (I1–I10), in memory and through real files.
 */
import {
  buildContextEntries,
  createDeterministicEnv,
  nameOf,
  projectionState,
  replayProjection,
  replayState,
  type SessionEntry,
  type SessionHeader,
  SessionManager,
  type SessionState,
  treeOf,
} from "@pi-sessions/core";
import {
  contextOfSummary,
  entriesOf,
  foldEntry,
  idAt,
  initialState,
  type LabelIndex,
  labelsProjection,
  leafSummary,
  migrateRecords,
  type PathSummary,
  resolveLabels,
  sessionNameProjection,
  type Vec,
} from "@pi-sessions/core/internal";
import {
  checkI1Header,
  checkI2UniqueIdsAndParents,
  checkI5RoundTrip,
  checkI5TextRoundTrip,
  checkI6FoldLaws,
  checkI7MigrateRecords,
  checkI7MigrationFile,
  checkI9SessionSnapshots,
  checkI10DamageRecovery,
  checkSessionInvariants,
  createFileHarness,
  createMemoryHarness,
  damagedSessionArb,
  formatViolation,
  legacySessionArb,
  sessionLogArb,
  userMessageArb,
  type Violation,
} from "@pi-sessions/testkit";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(200);
const files = createFileHarness(SessionManager, { name: "core files" });
const memory = createMemoryHarness({ SessionManager });
afterAll(() => files.dispose());

/** Asserts no violation, printing them readably when there are some. */
function expectNone(violations: readonly Violation[]): void {
  expect(violations.map(formatViolation)).toEqual([]);
}

const items = <T>(v: Vec<T>): T[] => v.items.slice(0, v.length);

/** What a caller can see of a core state: every query, through core's own readers. */
function observeState(s: SessionState): unknown {
  const summary = leafSummary(s) as PathSummary;
  const entries = entriesOf(s);
  return {
    leaf: s.leafId,
    entries,
    tree: treeOf(s),
    name: nameOf(s),
    labels: [...resolveLabels(projectionState(s, "labels") as LabelIndex)],
    path: items(summary.path).map((pos) => idAt(s.log, pos)),
    context: contextOfSummary(s.log, summary),
  };
}

const logs = sessionLogArb({
  maxEntries: 40,
  multiRoot: true,
  unknownTypes: true,
  unknownFields: true,
});

describe(`invariants hold on our SessionManager (numRuns ${RUNS} each)`, () => {
  it("I2, I3, I4, I8 on a loaded log, at every leaf, and after a branch and an append", () => {
    fc.assert(
      fc.property(logs, fc.nat(), userMessageArb(), (log, pick, message) => {
        const sm = SessionManager.fromJsonl(log.jsonl);
        expectNone(checkSessionInvariants(sm, { buildContextEntries }));
        expectNone(checkI2UniqueIdsAndParents(log.entries));
        const target = log.entries[pick % Math.max(1, log.entries.length)];
        if (target) sm.branch(target.id);
        else sm.resetLeaf();
        sm.appendMessage(message);
        expectNone(checkSessionInvariants(sm));
      }),
      params(RUNS),
    );
  });

  it("I1 and I5 through files: append, reopen, compare; the written text round-trips", () => {
    fc.assert(
      fc.property(logs, fc.array(userMessageArb(), { maxLength: 3 }), (log, messages) => {
        expectNone(checkI5TextRoundTrip(log.jsonl));
        const act = (s: SessionManager) => {
          for (const m of messages) s.appendMessage(m);
        };
        expectNone(checkI5RoundTrip(files, log.jsonl, act));
        expectNone(checkI1Header(files.withFile(log.jsonl, act).text));
      }),
      params(RUNS),
    );
  });

  it("I6: the session-state fold and the label and name projections obey the fold laws", () => {
    fc.assert(
      fc.property(logs, (log) => {
        const header = log.header as SessionHeader;
        const entries = log.entries as SessionEntry[];
        expectNone(
          checkI6FoldLaws(
            {
              name: "session state",
              init: () => initialState(header),
              apply: (s, e) => foldEntry(s, e as SessionEntry),
            },
            entries,
            { observe: observeState, replay: (es) => replayState(header, es as SessionEntry[]) },
          ),
        );
        expectNone(
          checkI6FoldLaws(labelsProjection, entries, {
            observe: (s) => resolveLabels(s),
            replay: (es) => replayProjection(labelsProjection, es as SessionEntry[]),
          }),
        );
        expectNone(
          checkI6FoldLaws(sessionNameProjection, entries, {
            replay: (es) => replayProjection(sessionNameProjection, es as SessionEntry[]),
          }),
        );
      }),
      params(RUNS),
    );
  });

  it("I7: legacy records and files migrate idempotently, keeping every line", () => {
    fc.assert(
      fc.property(
        legacySessionArb({ garbageLines: true, versionless: true }),
        fc.nat(),
        (s, seed) => {
          const migrate = (rs: Record<string, unknown>[]) =>
            migrateRecords(rs, createDeterministicEnv({ seed: seed + 1 })).records;
          expectNone(checkI7MigrateRecords(migrate, s.records));
          expectNone(checkI7MigrationFile(files, s.jsonl));
        },
      ),
      params(RUNS),
    );
  });

  it("I9: everything read before appends, branches and labels reads the same after", () => {
    fc.assert(
      fc.property(logs, fc.nat(), userMessageArb(), (log, pick, message) => {
        const sm = SessionManager.fromJsonl(log.jsonl);
        const target = log.entries[pick % Math.max(1, log.entries.length)];
        const violations = checkI9SessionSnapshots(
          sm,
          (s) => {
            s.appendMessage(message);
            if (target) {
              s.appendLabelChange(target.id, "later");
              s.branch(target.id);
            }
            s.appendSessionInfo("renamed");
            s.appendMessage(message);
          },
          (state) => observeState(state as SessionState),
        );
        expectNone(violations);
      }),
      params(RUNS),
    );
  });

  it("I10: damaged files load, recover every intact entry, report the damage, and take an append", () => {
    fc.assert(
      fc.property(damagedSessionArb({ maxDamage: 4 }), (d) => {
        expectNone(checkI10DamageRecovery(memory, d));
        expectNone(checkI10DamageRecovery(files, d));
      }),
      params(RUNS),
    );
  });
});
