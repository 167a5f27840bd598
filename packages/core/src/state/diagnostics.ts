import { type EntryLog, idAt, parentIdAt } from "./entry-log.js";
import { logTreeSource, treeIndex } from "./tree.js";

/** What kind of problem a load found. */
export type LoadDiagnosticKind =
  | "invalid-json"
  | "not-an-object"
  | "line-too-long"
  | "invalid-entry"
  | "extra-header"
  | "duplicate-id"
  | "dangling-parent"
  | "cycle"
  | "migration";

/**
 * One problem found while loading a session (SPEC W5: malformed lines are reported, never dropped
 * silently). Loading never fails for these: the damaged line or entry is kept (in the file, and in
 * memory where it can be), and reported.
 */
export interface LoadDiagnostic {
  readonly kind: LoadDiagnosticKind;
  /** 1-based line number in the file, when the session came from text. */
  readonly line?: number;
  readonly entryId?: string;
  readonly message: string;
}

/**
 * Structural problems of a log: duplicate ids (W15), dangling parents, parent cycles and
 * self-parents (W14); `lineOf` maps positions to file lines. O(n), computed only when asked.
 */
export function structuralDiagnostics(
  log: EntryLog,
  lineOf: (position: number) => number | undefined = () => undefined,
): LoadDiagnostic[] {
  const out: LoadDiagnostic[] = [];
  const add = (kind: LoadDiagnosticKind, pos: number, message: string) =>
    out.push({ kind, line: lineOf(pos), entryId: idAt(log, pos), message });
  for (const pos of log.store.duplicates) {
    if (pos >= log.length) break; // ascending: the rest came after this snapshot
    const where = lineOf(pos) === undefined ? `entry ${pos + 1}` : "this entry";
    const id = idAt(log, pos);
    add("duplicate-id", pos, `${where} reuses id ${id}; the later entry shadows the earlier one`);
  }
  const tree = treeIndex(logTreeSource(log));
  for (const pos of tree.indexed) {
    const [id, parentId] = [idAt(log, pos), parentIdAt(log, pos)];
    if (parentId === id) add("cycle", pos, `entry ${id} is its own parent`);
    else if (typeof parentId === "string" && tree.parentOf(pos) === -1) {
      const why = "which does not exist; it is shown as a root";
      add("dangling-parent", pos, `entry ${id} names parent ${parentId}, ${why}`);
    }
  }
  for (const cycle of tree.cycles) {
    const members = cycle.map((q) => idAt(log, q)).join(" → ");
    add("cycle", cycle[0] as number, `parent cycle through ${members}; walks stop at the repeat`);
  }
  return out;
}
