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
 * What {@link SessionShapeFold} keeps to go on folding a file's later lines, besides the ids it
 * has seen (a store answers for those: {@link StoredIds}).
 */
export interface SessionShapeFoldState {
  readonly headerSeen: boolean;
  readonly irregularity?: ShapeIrregularity;
  /** Entries counted so far. */
  readonly entries: number;
  /** How many distinct parent ids the fold had seen. */
  readonly parents: number;
}

/** Where a resumed shape fold asks about the ids of the lines folded before it was saved. */
export interface StoredIds {
  /** Whether an earlier entry has this id. */
  hasId(id: string): boolean;
  /** Whether an earlier entry names this id as its parent. */
  hasParent(id: string): boolean;
}

/**
 * A set whose older members live in a store: the shape fold asks whether an id was seen before,
 * and loading every id of a huge session to answer for a few new lines would cost what the
 * store is there to save. New members are kept in memory; `size` adds the stored count.
 */
class StoredIdSet extends Set<string> {
  constructor(
    private readonly stored: (id: string) => boolean,
    private readonly storedCount: number,
  ) {
    super();
  }

  override has(id: string): boolean {
    return super.has(id) || this.stored(id);
  }

  override add(id: string): this {
    if (!this.stored(id)) super.add(id);
    return this;
  }

  override get size(): number {
    return super.size + this.storedCount;
  }
}

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
  private ids: Set<string> = new Set<string>();
  private parents: Set<string> = new Set<string>();

  constructor(private readonly inner: JsonlVisitor) {}

  /**
   * The fold at a saved state, wrapping `inner`; `ids` answers for the entries folded before
   * the state was saved.
   */
  static resume(
    inner: JsonlVisitor,
    state: SessionShapeFoldState,
    ids: StoredIds,
  ): SessionShapeFold {
    const fold = new SessionShapeFold(inner);
    fold.headerSeen = state.headerSeen;
    fold.irregularity = state.irregularity;
    fold.entries = state.entries;
    // A file folded from its start has nothing stored to ask about.
    if (state.entries === 0 && state.parents === 0) return fold;
    fold.ids = new StoredIdSet((id) => ids.hasId(id), state.entries);
    fold.parents = new StoredIdSet((id) => ids.hasParent(id), state.parents);
    return fold;
  }

  /** Whether nothing irregular was seen so far (every id new, every parent seen before). */
  get regularSoFar(): boolean {
    return this.irregularity === undefined;
  }

  /** The state to save (see {@link sessionShapeCodec}). */
  state(): SessionShapeFoldState {
    return {
      headerSeen: this.headerSeen,
      ...(this.irregularity === undefined ? {} : { irregularity: this.irregularity }),
      entries: this.entries,
      parents: this.parents.size,
    };
  }

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
