/**
 * A cheap structural summary of a session file, gathered (opt-in) in the pass that builds its
 * `SessionInfo`, so that a regular file, the common case, needs no full load.
 */

import type { JsonlVisitor, JsonRecord, LineIssue } from "../format/parse.js";
import { isCurrentHeader, recordKind } from "../format/record-rules.js";

/**
 * The first thing seen that makes a file not regular (a full load may report a problem or count
 * differently). `legacy-version`: a header version that is not a number ≥ 3; `damaged-line`: a
 * line that is not a JSON object; `parent-not-seen`: a string `parentId` naming no earlier entry
 * (dangling, self, or after its child: see {@link SessionShapeFold}); the others say what they are.
 */
export type ShapeIrregularity =
  | "legacy-version"
  | "damaged-line"
  | "extra-header"
  | "missing-id"
  | "duplicate-id"
  | "parent-not-seen"
  | "missing-newline";

/** What one pass over a session file tells about its structure; `size` is the bytes read. */
export type SessionShape =
  | {
      /** Nothing a full load would report: no problems, and the counts below are exact. */
      readonly regular: true;
      /** Entries with a string id (every type), as a load keeps them. */
      readonly entries: number;
      /** Branch tips: entries no other entry names as parent. */
      readonly branches: number;
      readonly size: number;
    }
  | {
      /** Something a full load treats specially; count and diagnose with a full load. */
      readonly regular: false;
      /** The first irregularity met, in file order (`missing-newline` is seen last). */
      readonly irregularity: ShapeIrregularity;
      readonly size: number;
    };

/**
 * Wraps the visitor that builds the info and watches the same records go by; the first record
 * is taken as the header (the inner fold drops the file when it is not one). No cycle can hide
 * in a regular file: every string `parentId` names an entry seen earlier and ids are unique, so
 * parents lead strictly towards the file's start, to a root. A parent written after its child,
 * usually harmless, is flagged: only so can a cycle (or a self-parent) form. Once something is
 * irregular, ids are no longer collected, so a damaged file costs no more.
 */
export class SessionShapeFold implements JsonlVisitor {
  // Public, like the info fold's state, so that a persisted index can resume it.
  headerSeen = false;
  irregularity: ShapeIrregularity | undefined;
  entries = 0;
  readonly ids = new Set<string>();
  readonly parents = new Set<string>();

  constructor(private readonly inner: JsonlVisitor) {}

  record(record: JsonRecord, line: number, raw: string): boolean | undefined {
    if (this.irregularity === undefined) this.observe(record);
    return this.inner.record(record, line, raw);
  }

  issue(issue: LineIssue): boolean | undefined {
    this.irregularity ??= "damaged-line";
    return this.inner.issue(issue);
  }

  private observe(record: JsonRecord): void {
    if (!this.headerSeen) {
      this.headerSeen = true;
      if (!isCurrentHeader(record)) this.irregularity = "legacy-version";
      return;
    }
    const kind = recordKind(record, true);
    if (kind !== "entry") {
      this.irregularity = kind === "missing-id" ? "missing-id" : "extra-header";
      return;
    }
    const id = record.id as string;
    if (this.ids.has(id)) {
      this.irregularity = "duplicate-id";
      return;
    }
    const parentId = record.parentId;
    if (typeof parentId === "string") {
      // Checked before `id` joins the set, so a self-parent is caught here too.
      if (!this.ids.has(parentId)) {
        this.irregularity = "parent-not-seen";
        return;
      }
      this.parents.add(parentId);
    }
    this.ids.add(id);
    this.entries++;
  }

  /** The summary once the scan is over; `endsWithNewline` and `size` come from the reader. */
  finish(endsWithNewline: boolean, size: number): SessionShape {
    const irregularity = this.irregularity ?? (endsWithNewline ? undefined : "missing-newline");
    if (irregularity !== undefined) return { regular: false, irregularity, size };
    // Every parent is an existing, unique id, so the tips are the ids no one names as parent.
    const branches = this.entries - this.parents.size;
    return { regular: true, entries: this.entries, branches, size };
  }
}
