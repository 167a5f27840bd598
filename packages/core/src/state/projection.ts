import type { SessionEntry } from "../schema/types.js";
import { type EntryLog, entryAt, getLogEntry, logFromEntries, positionOf } from "./entry-log.js";
import { pathInLog } from "./tree.js";

/**
 * Read access to the log while a projection folds one entry: the entries already folded
 * (not the one being applied), by id and by path. Valid only during the `apply` call it is
 * passed to: a replay reuses one context for every entry.
 */
export interface FoldContext {
  /** Zero-based position of the entry being applied among all entries of the log. */
  readonly position: number;
  /** The indexed entry with this id among the entries folded so far (last one wins). */
  getEntry(id: string): SessionEntry | undefined;
  /**
   * The path root → `id` among the entries folded so far (cycle-safe), `[]` for an unknown
   * id. O(path): a projection that needs its entry's branch asks here instead of keeping a
   * copy of the log.
   */
  pathTo(id: string): SessionEntry[];
}

/**
 * A projection: a pure fold of the entry log into some state `S` (DESIGN rule 5). The
 * built-ins (labels, session name, context) and every plugin's are this same shape and run
 * through the same runner.
 *
 * `apply` must not change anything a previous state can observe: a state returned earlier
 * stays valid and unchanged after later applications (DESIGN I9). Built-in projections meet
 * that with append-only shared stores read through a version; small plugin states can simply
 * return new objects (or use `defineDraftProjection`, over immer).
 */
export interface Projection<S> {
  /** Unique name; plugins address their state by it, and a built-in is replaced by it. */
  readonly name: string;
  /**
   * The entry types this projection folds, when it folds only some: the runner then skips
   * every other entry (its state stays the same object), so a label index costs nothing on
   * messages. Omitted: every entry.
   */
  readonly types?: readonly string[];
  /** The state of an empty log. */
  init(): S;
  /** The state after one more entry. */
  apply(state: S, entry: SessionEntry, ctx: FoldContext): S;
}

/**
 * Declares a projection. An identity function that fixes the state type, so a projection
 * literal is checked once where it is written rather than where it is used.
 */
export function defineProjection<S>(projection: Projection<S>): Projection<S> {
  return projection;
}

/** A registered projection with its current state. */
export interface ProjectionSlot {
  readonly projection: Projection<unknown>;
  readonly state: unknown;
}

/**
 * The fold context over a prefix of a log. A class, so that one object with prototype
 * methods serves a whole replay (its prefix moves on) and an append allocates one object
 * and no closures.
 */
class LogContext implements FoldContext {
  constructor(
    private log: EntryLog,
    public position: number,
  ) {}
  /** Moves the context to the prefix before `position` of `log`. */
  at(log: EntryLog, position: number): this {
    this.log = position === log.length ? log : { ...log, length: position };
    this.position = position;
    return this;
  }
  getEntry(id: string): SessionEntry | undefined {
    return getLogEntry(this.log, id);
  }
  pathTo(id: string): SessionEntry[] {
    const log = this.log;
    const pos = positionOf(log, id);
    return pos < 0 ? [] : pathInLog(log, entryAt(log, pos));
  }
}

/** Whether `projection` folds entries of this type. */
function folds(projection: Projection<unknown>, type: string): boolean {
  const types = projection.types;
  return types === undefined || types.includes(type);
}

/**
 * THE runner: every slot's state after one more entry, given a context over the entries
 * before it. Slots that skip the entry's type keep their state object; when no state changed
 * the same array comes back, so an append that concerns no projection allocates nothing.
 */
function step(
  slots: readonly ProjectionSlot[],
  entry: SessionEntry,
  ctx: FoldContext,
): readonly ProjectionSlot[] {
  let out: ProjectionSlot[] | undefined;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i] as ProjectionSlot;
    if (!folds(slot.projection, entry.type)) continue;
    const state = slot.projection.apply(slot.state, entry, ctx);
    if (state === slot.state) continue;
    out ??= slots.slice();
    out[i] = { projection: slot.projection, state };
  }
  return out ?? slots;
}

/** Fresh slots for `projections`, each at its initial state. */
export function initialSlots(projections: readonly Projection<unknown>[]): ProjectionSlot[] {
  return projections.map((projection) => ({ projection, state: projection.init() }));
}

/**
 * Folds one more entry into `slots`, `before` being the log it is appended to: the
 * incremental use of the runner, once per append. O(projections).
 */
export function foldSlots(
  slots: readonly ProjectionSlot[],
  before: EntryLog,
  entry: SessionEntry,
): readonly ProjectionSlot[] {
  if (slots.length === 0) return slots;
  return step(slots, entry, new LogContext(before, before.length));
}

/**
 * Folds a whole entry list with one projection, outside any session (a plugin computing its
 * state from `getEntries()`): the replay runner over a log built from a copy of the list.
 */
export function replayProjection<S>(
  projection: Projection<S>,
  entries: readonly SessionEntry[],
): S {
  const slots = replaySlots(
    initialSlots([projection as Projection<unknown>]),
    logFromEntries(entries.slice()),
  );
  return (slots[0] as ProjectionSlot).state as S;
}

/**
 * Folds every entry of `log` into `slots` in file order, each seeing only the entries before
 * it: the replay use of the same runner (a load, or a projection added to a live session).
 * Equal to folding one entry at a time — the fold law the tests check.
 */
export function replaySlots(
  slots: readonly ProjectionSlot[],
  log: EntryLog,
): readonly ProjectionSlot[] {
  let out = slots;
  if (out.length === 0) return out;
  const ctx = new LogContext(log, 0);
  for (let i = 0; i < log.length; i++) out = step(out, entryAt(log, i), ctx.at(log, i));
  return out;
}
