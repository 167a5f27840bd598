import { duplicatePositions, type EntryLog, entryAt, positionOf } from "../state/entry-log.js";

/** What kind of problem a load found. */
export type LoadDiagnosticKind =
  | "invalid-json"
  | "not-an-object"
  | "invalid-entry"
  | "extra-header"
  | "duplicate-id"
  | "dangling-parent"
  | "cycle"
  | "migration";

/**
 * One problem found while loading a session (SPEC W5). Loading never fails for these: the
 * damaged line or entry is kept (in the file, and in memory where it can be), and reported.
 */
export interface LoadDiagnostic {
  readonly kind: LoadDiagnosticKind;
  /** 1-based line number in the file, when the session came from text. */
  readonly line?: number;
  /** The entry concerned, when there is one. */
  readonly entryId?: string;
  /** Human-readable description. */
  readonly message: string;
}

/** Formats a diagnostic as one line, e.g. `line 7: duplicate-id: …`. */
export function formatDiagnostic(d: LoadDiagnostic): string {
  return `${d.line !== undefined ? `line ${d.line}: ` : ""}${d.kind}: ${d.message}`;
}

/**
 * Structural problems of a log: duplicate ids (W15), parents that do not exist, and parent
 * cycles (W14). O(n); computed when asked, not on every load.
 */
export function structuralDiagnostics(log: EntryLog): LoadDiagnostic[] {
  const out: LoadDiagnostic[] = [];
  for (const pos of duplicatePositions(log)) {
    const id = entryAt(log, pos).id;
    out.push({
      kind: "duplicate-id",
      entryId: id,
      message: `entry ${pos + 1} reuses id ${id}; the later entry shadows the earlier one`,
    });
  }
  const state = new Uint8Array(log.length); // 0 unknown, 1 on walk, 2 done
  for (let start = 0; start < log.length; start++) {
    const entry = entryAt(log, start);
    if (positionOf(log, entry.id) !== start) continue;
    const parentId = entry.parentId;
    if (typeof parentId === "string" && parentId !== entry.id && positionOf(log, parentId) < 0) {
      out.push({
        kind: "dangling-parent",
        entryId: entry.id,
        message: `entry ${entry.id} names parent ${parentId}, which does not exist; it is shown as a root`,
      });
    }
    if (parentId === entry.id) {
      out.push({
        kind: "cycle",
        entryId: entry.id,
        message: `entry ${entry.id} is its own parent`,
      });
      continue;
    }
    if (state[start] === 2) continue;
    const walk: number[] = [];
    let p = start;
    while (p >= 0 && state[p] === 0) {
      state[p] = 1;
      walk.push(p);
      const pid = entryAt(log, p).parentId;
      const next = typeof pid === "string" ? positionOf(log, pid) : -1;
      p = next === p ? -1 : next;
    }
    if (p >= 0 && state[p] === 1) {
      const members = walk.slice(walk.indexOf(p)).map((q) => entryAt(log, q).id);
      out.push({
        kind: "cycle",
        entryId: members[0],
        message: `parent cycle through ${members.join(" → ")}; walks stop at the repeat`,
      });
    }
    for (const w of walk) state[w] = 2;
  }
  return out;
}
