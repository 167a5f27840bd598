/**
 * The invariants of DESIGN §4 as a table (id, statement, checkers), and one call that runs the
 * checks a loaded session alone can answer (I2 ids and parents, I3 branches, I4 the tree, I8 the
 * context).
 */
import { checkI3BranchPaths } from "./branch.js";
import { type ContextCheckOptions, checkI8ContextFromPath } from "./context.js";
import { checkI10DamageRecovery } from "./damage.js";
import { checkI6FoldLaws } from "./fold.js";
import { checkI7MigrateRecords, checkI7MigrationFile } from "./migration.js";
import { checkI5ReopenEquals, checkI5RoundTrip, checkI5TextRoundTrip } from "./round-trip.js";
import { checkI9SessionSnapshots, checkI9Snapshots } from "./snapshots.js";
import { checkI1Header, checkI2UniqueIdsAndParents } from "./structure.js";
import { checkI4TreeCoverage } from "./tree.js";
import type { InvariantId, SessionView, Violation } from "./types.js";

/** One row of {@link INVARIANTS}. */
export interface InvariantInfo {
  readonly id: InvariantId;
  /** The invariant as DESIGN §4 states it. */
  readonly statement: string;
  /** What a checker needs: plain data, a session, a harness, a fold… */
  readonly needs: string;
  /** The checker functions, by name. */
  readonly checkers: Readonly<Record<string, (...args: never[]) => Violation[]>>;
}

/** Every invariant with its checkers. */
export const INVARIANTS: readonly InvariantInfo[] = [
  {
    id: "I1",
    statement: "A written file starts with exactly one valid header.",
    needs: "the text of a file the implementation wrote",
    checkers: { checkI1Header },
  },
  {
    id: "I2",
    statement: "Ids are unique; every parentId is null or an existing id; no cycles.",
    needs: "entries, { entries }, or a session",
    checkers: { checkI2UniqueIdsAndParents },
  },
  {
    id: "I3",
    statement:
      "getBranch(x) runs root → x, each step parent → child; the leaf is null or an existing id.",
    needs: "a session",
    checkers: { checkI3BranchPaths },
  },
  {
    id: "I4",
    statement: "getTree() holds every entry exactly once; children are ordered as SPEC §7.8 says.",
    needs: "a session",
    checkers: { checkI4TreeCoverage },
  },
  {
    id: "I5",
    statement:
      "Write → reopen gives equal entries, tree, labels, name and context; for files we wrote, serialize(parse(text)) = text.",
    needs: "two sessions, a text and a format, or a harness",
    checkers: { checkI5ReopenEquals, checkI5TextRoundTrip, checkI5RoundTrip },
  },
  {
    id: "I6",
    statement:
      "Folding a log in two parts equals folding it at once; every projection's incremental state equals its replay.",
    needs: "a fold ({ init, apply }) and entries",
    checkers: { checkI6FoldLaws },
  },
  {
    id: "I7",
    statement:
      "Migration v1/v2 → v3 is idempotent and keeps every line (unparseable ones verbatim).",
    needs: "a migrate function and records, or a file harness and text",
    checkers: { checkI7MigrateRecords, checkI7MigrationFile },
  },
  {
    id: "I8",
    statement:
      "buildContextEntries is drawn from the leaf's path (plus the compaction summary), in path order; nothing before firstKeptEntryId survives a compaction.",
    needs: "a session (and optionally the free buildContextEntries)",
    checkers: { checkI8ContextFromPath },
  },
  {
    id: "I9",
    statement: "Snapshots taken before an append are unchanged after it.",
    needs: "a snapshot function and a mutation, or a session and a mutation",
    checkers: { checkI9Snapshots, checkI9SessionSnapshots },
  },
  {
    id: "I10",
    statement:
      "Any truncation or garbage injected into a file loads without crashing, recovers every intact line, reports the damaged ones, and the next append yields a valid file.",
    needs: "a harness (with files, for the append) and a damaged case",
    checkers: { checkI10DamageRecovery },
  },
];

/** Options of {@link checkSessionInvariants}. */
export interface SessionInvariantOptions extends ContextCheckOptions {
  /** Ids whose branch I3 (root → entry, parent → child) checks (default: all). */
  branchIds?: readonly string[];
}

/**
 * The invariants a loaded session alone can answer — I2 (ids and parents), I3 (branches), I4 (the
 * tree) and I8 (the context) — in one call. Use on the result of any load, append or branch; an
 * empty list means all hold.
 */
export function checkSessionInvariants(
  session: SessionView,
  options: SessionInvariantOptions = {},
): Violation[] {
  return [
    ...checkI2UniqueIdsAndParents(session),
    ...checkI3BranchPaths(session, options.branchIds ? { ids: options.branchIds } : {}),
    ...checkI4TreeCoverage(session),
    ...checkI8ContextFromPath(session, options),
  ];
}
