import type { SessionEntry } from "../schema/types.js";

/**
 * The append-only entry log with its id and children indexes, shared by the snapshots of one
 * line of appends: each reads only its prefix, so appending never copies (DESIGN rule 6). An
 * append to an older snapshot (a fork) copies its prefix to a new store: newer ones never see it.
 */
interface LogStore {
  readonly entries: SessionEntry[];
  /** id → position of its latest occurrence. */
  readonly latest: Map<string, number>;
  /** position → previous position with the same id; only duplicates pay for it. */
  readonly previous: Map<number, number>;
  /**
   * parentId → positions naming it, ascending (a lone child as a bare number, sparing an array
   * per entry). Built on the first children query, so opening a file does not pay for it.
   */
  children: Map<string, number | number[]> | undefined;
  /**
   * Positions whose id was already in the log (SPEC W15: duplicate ids; the last one wins lookups).
   */
  readonly duplicates: number[];
}

/** An immutable snapshot of the entry log: the first `length` entries of a shared store. */
export interface EntryLog {
  readonly store: LogStore;
  readonly length: number;
  /** Number of distinct ids among the first `length` entries. */
  readonly distinct: number;
}

function emptyStore(entries: SessionEntry[] = []): LogStore {
  return { entries, latest: new Map(), previous: new Map(), children: undefined, duplicates: [] };
}

function indexChild(children: Map<string, number | number[]>, entry: SessionEntry, pos: number) {
  const parent = entry.parentId;
  if (typeof parent !== "string") return;
  const list = children.get(parent);
  if (list === undefined) children.set(parent, pos);
  else if (typeof list === "number") children.set(parent, [list, pos]);
  else list.push(pos);
}

/** Indexes the id at `pos`; returns whether it was new. */
function indexId(store: LogStore, pos: number): boolean {
  const id = (store.entries[pos] as SessionEntry).id;
  const prev = store.latest.get(id);
  store.latest.set(id, pos);
  if (prev === undefined) return true;
  store.previous.set(pos, prev);
  store.duplicates.push(pos);
  return false;
}

function pushToStore(store: LogStore, entry: SessionEntry): boolean {
  const pos = store.entries.push(entry) - 1;
  if (store.children) indexChild(store.children, entry, pos);
  return indexId(store, pos);
}

/** The log with `entry` appended: O(1) amortised, O(length) once when forking an older snapshot. */
export function appendToLog(log: EntryLog, entry: SessionEntry): EntryLog {
  let store = log.store;
  if (store.entries.length !== log.length) {
    store = emptyStore();
    for (let i = 0; i < log.length; i++) pushToStore(store, log.store.entries[i] as SessionEntry);
  }
  const isNew = pushToStore(store, entry);
  return { store, length: log.length + 1, distinct: log.distinct + (isNew ? 1 : 0) };
}

/** A log of entries in file order, owning the array (a load's, uncopied): do not change it. */
export function logFromEntries(entries: SessionEntry[]): EntryLog {
  const store = emptyStore(entries);
  // With unique ids one Map write per entry is all it takes (a duplicate shows as a Map that
  // did not grow); only a log with duplicates pays the second, careful pass.
  for (let pos = 0; pos < entries.length && store.latest.size === pos; pos++) {
    store.latest.set((entries[pos] as SessionEntry).id, pos);
  }
  let distinct = store.latest.size;
  if (distinct !== entries.length) {
    store.latest.clear();
    distinct = 0;
    for (let pos = 0; pos < entries.length; pos++) if (indexId(store, pos)) distinct++;
  }
  return { store, length: entries.length, distinct };
}

/** Position of the indexed (latest) entry with this id within the snapshot, or -1. */
export function positionOf(log: EntryLog, id: string): number {
  let pos = log.store.latest.get(id);
  // Back past occurrences appended after this snapshot was taken.
  while (pos !== undefined && pos >= log.length) pos = log.store.previous.get(pos);
  return pos ?? -1;
}

/** The indexed entry with this id (last occurrence wins, SPEC W15). */
export function getLogEntry(log: EntryLog, id: string): SessionEntry | undefined {
  const pos = positionOf(log, id);
  return pos < 0 ? undefined : log.store.entries[pos];
}

/** Whether `id` was ever used in the snapshot, including shadowed duplicates. */
export function hasSeenId(log: EntryLog, id: string): boolean {
  return positionOf(log, id) >= 0;
}

/** The entry at a position `< log.length`. */
export function entryAt(log: EntryLog, pos: number): SessionEntry {
  return log.store.entries[pos] as SessionEntry;
}

/** The last entry in file order. */
export function lastEntry(log: EntryLog): SessionEntry | undefined {
  return log.length === 0 ? undefined : log.store.entries[log.length - 1];
}

/** A new array of the snapshot's entries in file order. */
export function logEntries(log: EntryLog): SessionEntry[] {
  return log.store.entries.slice(0, log.length);
}

/**
 * Indexed entries whose `parentId` is exactly `parentId`, in file order (SPEC §7.7). Costs
 * the number of children. With duplicate ids the reference orders by the first occurrence of
 * each id (Map insertion order), which we reproduce on that rare path only.
 */
export function childrenOf(log: EntryLog, parentId: string): SessionEntry[] {
  const store = log.store;
  if (!store.children) {
    store.children = new Map();
    for (let i = 0; i < store.entries.length; i++)
      indexChild(store.children, store.entries[i] as SessionEntry, i);
  }
  const found = store.children.get(parentId) ?? [];
  let list = (typeof found === "number" ? [found] : found).filter((pos) => pos < log.length);
  if (log.distinct !== log.length) {
    const first = (pos: number) => {
      let p = pos;
      for (let q = store.previous.get(p); q !== undefined; q = store.previous.get(q)) p = q;
      return p;
    };
    list = list.filter((pos) => positionOf(log, entryAt(log, pos).id) === pos);
    list.sort((a, b) => first(a) - first(b));
  }
  return list.map((pos) => entryAt(log, pos));
}
