/**
 * The differences between pi's SessionManager and ours that the pi-runtime test allows:
 * only deliberate ones, each a [Fix] row of SPEC §12, stated with its row code and why it
 * shows in this flow. Any difference no row accepts fails the test.
 */
import type { Difference } from "./compare-sides.js";

/** One allowed difference: a SPEC §12 [Fix] row and the differences it explains. */
export interface FixRow {
  /** The SPEC §12 row, e.g. "W22". */
  readonly row: `W${number}`;
  /** A few words telling rows with the same code apart in the report. */
  readonly title: string;
  /** What differs, and why ours must differ there. */
  readonly why: string;
  readonly accepts: (difference: Difference) => boolean;
}

/** The [Fix] rows this flow may show (see the module comment). */
export const FIX_ROWS: readonly FixRow[] = [
  {
    row: "W22",
    title: "private file modes",
    why:
      "transcripts are private: ours creates session files 0600 and session directories 0700 " +
      "where pi leaves them to the umask (0644 and 0755 here); the content is the same",
    // Whatever pi's mode is (it depends on the umask), ours must be the private one: 0600
    // for a session file, 0700 for a directory.
    accepts: (d) => d.kind === "mode" && d.ours === (d.path.endsWith(".jsonl") ? "600" : "700"),
  },
  {
    row: "W7",
    title: "lock file",
    why:
      "single writer: while ours writes a session file it holds the advisory lock " +
      "<file>.lock next to it (seen in the listing taken before the runtime is disposed); " +
      "pi takes no lock. list() ignores it, and pi's own flows (reopen, /resume) still work",
    accepts: (d) => d.kind === "listing" && d.side === "ours" && d.path.endsWith(".jsonl.lock"),
  },
  {
    row: "W7",
    title: "no silent fork",
    why:
      "never fork silently: when another manager of this process appended to the file after " +
      "ours read it (the old session's shutdown handler, on a resume of the same file), ours " +
      "continues from that entry; pi's continues from the leaf it read, so the other entry " +
      "is cut off onto a branch of its own. The entry is the same, only its child's parentId " +
      "differs",
    // Only the child of the shutdown entry, and only with the two parents this case gives:
    // ours continues from that entry, pi's from the entry before it. A leaf move that ours
    // ignored would differ the same way elsewhere, and must not pass.
    accepts: (d) => {
      if (d.kind !== "line" || d.parents === undefined) return false;
      const previous = d.parents.previous;
      return (
        previous?.type === "custom" &&
        previous.customType === "flow-shutdown" &&
        d.parents.ours === previous.id &&
        d.parents.pi === previous.parentId
      );
    },
  },
];

/** The rows that accept `difference` (empty: the difference is not allowed). */
export function rowsAccepting(difference: Difference): FixRow[] {
  return FIX_ROWS.filter((row) => row.accepts(difference));
}
