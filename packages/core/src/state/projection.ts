import type { SessionEntry } from "../schema/types.js";
import {
  type EntryHead,
  type EntryLog,
  getLogEntry,
  handleAt,
  idAt,
  logFromEntries,
  parentIdAt,
  typeAt,
} from "./entry-log.js";
import { pathInLog } from "./tree.js";

/**
 * Read access to the entries folded before the one being applied. Valid only during the
 * `apply` call it is passed to: a replay reuses one context for every entry.
 */
export interface FoldContext {
  /** Zero-based log position of the entry being applied. */
  readonly position: number;
  /** The indexed entry with this id (last one wins). */
  getEntry(id: string): SessionEntry | undefined;
  /** The path root → `id` (cycle-safe; `[]` if unknown) in O(path), without copying the log. */
  pathTo(id: string): SessionEntry[];
}

/**
 * A pure fold of the entry log into some state `S` (DESIGN rule 5), built-in or a plugin's. `apply`
 * must leave every earlier state unchanged (DESIGN I9: a snapshot taken before an append is
 * unchanged after it): the built-ins keep shared append-only stores; small plugin states return new
 * objects (or use `defineDraftProjection`).
 */
export interface Projection<S> {
  /** Unique name; plugins address their state by it, and a built-in is replaced by it. */
  readonly name: string;
  /** The entry types it folds when only some (default all): the others cost it nothing. */
  readonly types?: readonly string[];
  init(): S;
  apply(state: S, entry: SessionEntry, ctx: FoldContext): S;
  /**
   * Optional: `apply` reads only the entry's `type`, `id` and `parentId`. The runner then may
   * pass an object with just those, so an append or a load decodes nothing for it.
   */
  readonly structural?: boolean;
  /**
   * Optional: the state after every entry of a log, computed from its structure instead of
   * folding entry by entry; it must equal the fold (a law the tests check). A load of a large
   * session then costs this projection nothing per entry.
   */
  replay?(log: LogView): S;
  /**
   * Optional, with {@link encode} and {@link decode}: the version of the rule `apply` (or
   * `replay`) folds by, a whole number. A store that keeps the state across runs keeps it as
   * `{ name, version, state }` and refolds a state saved under another version (SPEC §14 F2,
   * a saved state is never reused under another rule). Bump it whenever the rule changes what
   * a state means or holds; a test that folds fixed inputs (its fingerprint) catches a rule
   * changed without a bump.
   */
  readonly version?: number;
  /** The state as text, or `null` when text cannot hold it exactly (a store refolds then). */
  encode?(state: S): string | null;
  /** The state {@link encode} saved (text from `encode` of the same `version` only). */
  decode?(text: string): S;
}

/**
 * A fold whose state may be kept across runs: its name, the version of its rule and its
 * state's encoding. A {@link Projection} that declares `version`, `encode` and `decode` is one
 * ({@link VersionedProjection}); so are core's listing folds, which fold a file's raw records
 * (header and damaged lines included) rather than its entries. A store keeps
 * `{ name, version, state }` as the fold gives it and never reads inside the state.
 */
export interface VersionedFold<S> {
  /** The fold's name: a store keeps one state per name. */
  readonly name: string;
  /** The version of the rule (and of this encoding); a whole number. */
  readonly version: number;
  /** The state as text, or `null` when text cannot hold it exactly (the caller refolds then). */
  encode(state: S): string | null;
  /** The state {@link encode} saved (text from `encode` of the same version only). */
  decode(text: string): S;
}

/** A projection whose state a store may keep: it declares `version`, `encode` and `decode`. */
export type VersionedProjection<S> = Projection<S> & VersionedFold<S>;

/** A log as {@link Projection.replay} reads it: tree fields by position, entries on demand. */
export interface LogView {
  /** Number of entries. */
  readonly length: number;
  /** The id at a position. */
  idAt(position: number): string;
  /** The `parentId` value at a position. */
  parentIdAt(position: number): unknown;
  /** The `type` value at a position. */
  typeAt(position: number): unknown;
  /** The entry at a position (its body decoded when read). */
  entryAt(position: number): SessionEntry;
}

/** A log as a {@link LogView}. */
export function logView(log: EntryLog): LogView {
  return {
    length: log.length,
    idAt: (pos) => idAt(log, pos),
    parentIdAt: (pos) => parentIdAt(log, pos),
    typeAt: (pos) => typeAt(log, pos),
    entryAt: (pos) => handleAt(log, pos),
  };
}

/**
 * Declares a projection that a store may save: it declares `version` with `encode` and `decode`
 * (a `version` without both does not compile), and the result is a {@link VersionedProjection}.
 */
export function defineProjection<S>(projection: VersionedProjection<S>): VersionedProjection<S>;
/** Declares a projection: fixes the state type, so a literal is checked where it is written. */
export function defineProjection<S>(
  projection: Projection<S> & {
    readonly version?: undefined;
    readonly encode?: undefined;
    readonly decode?: undefined;
  },
): Projection<S>;
export function defineProjection<S>(projection: Projection<S>): Projection<S> {
  return projection;
}

/** A registered projection and its state. */
export interface ProjectionSlot {
  readonly projection: Projection<unknown>;
  readonly state: unknown;
}

/** The fold context over a log prefix: one object per replay or append, and no closures. */
class LogContext implements FoldContext {
  constructor(
    private log: EntryLog,
    public position: number,
  ) {}
  at(log: EntryLog, position: number): this {
    this.log = position === log.length ? log : { ...log, length: position };
    this.position = position;
    return this;
  }
  getEntry(id: string): SessionEntry | undefined {
    return getLogEntry(this.log, id);
  }
  pathTo(id: string): SessionEntry[] {
    return pathInLog(this.log, id);
  }
}

/**
 * THE runner: every slot's state after one more entry, given by its tree fields (`head`, the
 * entry itself when it is decoded) and `entry()` (called only for a projection that reads
 * more). When no state changed the same array comes back, so an append that concerns no
 * projection allocates nothing.
 */
function step(
  slots: readonly ProjectionSlot[],
  head: EntryHead,
  entry: () => SessionEntry,
  ctx: FoldContext,
): readonly ProjectionSlot[] {
  let out: ProjectionSlot[] | undefined;
  let full: SessionEntry | undefined;
  for (let i = 0; i < slots.length; i++) {
    const { projection, state: before } = slots[i] as ProjectionSlot;
    if (projection.types !== undefined && !projection.types.includes(head.type as string)) continue;
    // A projection that reads only tree fields gets the head; the full entry is built once.
    if (!projection.structural && full === undefined) full = entry();
    const given = projection.structural ? (head as SessionEntry) : (full as SessionEntry);
    const state = projection.apply(before, given, ctx);
    if (state === before) continue;
    out ??= slots.slice();
    out[i] = { projection, state };
  }
  return out ?? slots;
}

/**
 * Folds one entry appended to `before` into `slots`: the runner's incremental use. `head` is
 * the entry's tree fields (or the decoded entry), `entry()` the entry as callers get it.
 */
export function foldSlots(
  slots: readonly ProjectionSlot[],
  before: EntryLog,
  head: EntryHead,
  entry: () => SessionEntry,
): readonly ProjectionSlot[] {
  if (slots.length === 0) return slots;
  return step(slots, head, entry, new LogContext(before, before.length));
}

/** Folds an entry list with one projection, outside any session. */
export function replayProjection<S>(
  projection: Projection<S>,
  entries: readonly SessionEntry[],
): S {
  const [slot] = replaySlots([projection as Projection<unknown>], logFromEntries(entries.slice()));
  return (slot as ProjectionSlot).state as S;
}

/**
 * `projections` folded over every entry of `log` from their initial states (a load, a
 * projection added to a live session); equal to one entry at a time, a law the tests check.
 * A projection with `replay` computes its state from the log's structure; the others are
 * folded, each only over the entry types it asks for, so no entry is decoded for nobody.
 */
export function replaySlots(
  projections: readonly Projection<unknown>[],
  log: EntryLog,
): readonly ProjectionSlot[] {
  const states = projections.map((p) => (p.replay ? p.replay(logView(log)) : p.init()));
  const folded = projections.flatMap((p, i) => (p.replay ? [] : [i]));
  if (folded.length > 0) {
    const ctx = new LogContext(log, 0);
    for (let pos = 0; pos < log.length; pos++) {
      const type = typeAt(log, pos);
      let entry: SessionEntry | undefined;
      for (const i of folded) {
        const projection = projections[i] as Projection<unknown>;
        if (projection.types !== undefined && !projection.types.includes(type as string)) continue;
        if (!projection.structural && entry === undefined) entry = handleAt(log, pos);
        const given = projection.structural
          ? ({ type, id: idAt(log, pos), parentId: parentIdAt(log, pos) } as SessionEntry)
          : (entry as SessionEntry);
        states[i] = projection.apply(states[i], given, ctx.at(log, pos));
      }
    }
  }
  return projections.map((projection, i) => ({ projection, state: states[i] }));
}
