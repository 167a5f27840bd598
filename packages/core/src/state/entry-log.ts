import type { SessionEntry } from "../schema/types.js";

/**
 * The append-only entry log with its id and children indexes.
 *
 * One `LogStore` is shared by every snapshot taken from the same line of appends; a snapshot
 * (`EntryLog`) is the store plus a length and reads only its prefix, so taking a snapshot is
 * free and appending never copies (DESIGN rule 6). Appending to a snapshot that is not the
 * newest (a fork of history, e.g. after a rolled-back append) first copies its prefix into a
 * new store, so the newer snapshots sharing the old store never see the fork's entries.
 */
interface LogStore {
  readonly entries: SessionEntry[];
  /** id → position of its latest occurrence. Holds every id ever seen, shadowed ones too. */
  readonly latest: Map<string, number>;
  /**
   * position → position of the previous entry with the same id. Only duplicates have one,
   * so a well-formed log pays nothing for it.
   */
  readonly previous: Map<number, number>;
  /**
   * parentId → positions naming it as parent, ascending (a lone child is stored as a bare
   * number, the common case, to spare an array per entry). Built on the first children
   * query and kept up to date from then on, so opening a file does not pay for it.
   */
  children: Map<string, number | number[]> | undefined;
  /** Positions whose id was already in the log (duplicates, SPEC W15). */
  readonly duplicates: number[];
}

/** An immutable snapshot of the entry log: the first `length` entries of a shared store. */
export interface EntryLog {
  readonly store: LogStore;
  readonly length: number;
  /** Number of distinct ids among the first `length` entries. */
  readonly distinct: number;
}

function emptyStore(): LogStore {
  return {
    entries: [],
    latest: new Map(),
    previous: new Map(),
    children: undefined,
    duplicates: [],
  };
}

/** Records `pos` as a child of its entry's parent in a children index. */
function indexChild(
  children: Map<string, number | number[]>,
  entry: SessionEntry,
  pos: number,
): void {
  const parent = entry.parentId;
  if (typeof parent !== "string") return;
  const list = children.get(parent);
  if (list === undefined) children.set(parent, pos);
  else if (typeof list === "number") children.set(parent, [list, pos]);
  else list.push(pos);
}

/** The store's children index, built from its entries on first use. */
function childrenIndex(store: LogStore): Map<string, number | number[]> {
  if (!store.children) {
    const children = new Map<string, number | number[]>();
    for (let i = 0; i < store.entries.length; i++)
      indexChild(children, store.entries[i] as SessionEntry, i);
    store.children = children;
  }
  return store.children;
}

/** The empty log. */
export function emptyLog(): EntryLog {
  return { store: emptyStore(), length: 0, distinct: 0 };
}

/** Writes `entry` at the end of a store that `log` owns; returns whether its id was new. */
function pushToStore(store: LogStore, entry: SessionEntry): boolean {
  const pos = store.entries.length;
  store.entries.push(entry);
  const prev = store.latest.get(entry.id);
  store.latest.set(entry.id, pos);
  if (prev !== undefined) {
    store.previous.set(pos, prev);
    store.duplicates.push(pos);
  }
  if (store.children) indexChild(store.children, entry, pos);
  return prev === undefined;
}

/**
 * The log with `entry` appended. O(1) amortised when `log` is the newest snapshot of its
 * store; O(length) once when appending to an older snapshot (the fork copy).
 */
export function appendToLog(log: EntryLog, entry: SessionEntry): EntryLog {
  let store = log.store;
  if (store.entries.length !== log.length) {
    store = emptyStore();
    for (let i = 0; i < log.length; i++) pushToStore(store, log.store.entries[i] as SessionEntry);
  }
  const isNew = pushToStore(store, entry);
  return { store, length: log.length + 1, distinct: log.distinct + (isNew ? 1 : 0) };
}

/**
 * Builds a log from entries in file order, taking ownership of the array itself (a load
 * hands over the list it just built, so no copy is made); the caller must not change it.
 */
export function logFromEntries(entries: SessionEntry[]): EntryLog {
  // Optimistic pass: with unique ids one Map write per entry is all it takes (a duplicate
  // shows as a Map that did not grow). Only a log with duplicates pays a second, careful pass.
  const latest = new Map<string, number>();
  for (let pos = 0; pos < entries.length; pos++) {
    latest.set((entries[pos] as SessionEntry).id, pos);
    if (latest.size !== pos + 1) return logFromEntriesWithDuplicates(entries);
  }
  const store: LogStore = { ...emptyStore(), entries, latest };
  return { store, length: entries.length, distinct: entries.length };
}

/** The careful build: remembers the previous position of every reused id. */
function logFromEntriesWithDuplicates(entries: SessionEntry[]): EntryLog {
  const store: LogStore = { ...emptyStore(), entries };
  const { latest, previous, duplicates } = store;
  let distinct = 0;
  for (let pos = 0; pos < entries.length; pos++) {
    const id = (entries[pos] as SessionEntry).id;
    const prev = latest.get(id);
    latest.set(id, pos);
    if (prev === undefined) distinct++;
    else {
      previous.set(pos, prev);
      duplicates.push(pos);
    }
  }
  return { store, length: entries.length, distinct };
}

/** Position of the indexed (latest) entry with this id within the snapshot, or -1. */
export function positionOf(log: EntryLog, id: string): number {
  let pos = log.store.latest.get(id);
  if (pos === undefined) return -1;
  // Walk back past occurrences appended after this snapshot was taken.
  while (pos >= log.length) {
    pos = log.store.previous.get(pos);
    if (pos === undefined) return -1;
  }
  return pos;
}

/** The indexed entry with this id (last occurrence wins, SPEC W15), or undefined. */
export function getLogEntry(log: EntryLog, id: string): SessionEntry | undefined {
  const pos = positionOf(log, id);
  return pos < 0 ? undefined : log.store.entries[pos];
}

/** Whether `id` was ever used in the snapshot, including shadowed duplicates. */
export function hasSeenId(log: EntryLog, id: string): boolean {
  return positionOf(log, id) >= 0;
}

/** The entry at a position (must be `< log.length`). */
export function entryAt(log: EntryLog, pos: number): SessionEntry {
  return log.store.entries[pos] as SessionEntry;
}

/** The last entry in file order, or undefined for an empty log. */
export function lastEntry(log: EntryLog): SessionEntry | undefined {
  return log.length === 0 ? undefined : log.store.entries[log.length - 1];
}

/** A new array of the snapshot's entries in file order. */
export function logEntries(log: EntryLog): SessionEntry[] {
  return log.store.entries.slice(0, log.length);
}

/** Positions (ascending) of duplicated ids within the snapshot. */
export function duplicatePositions(log: EntryLog): number[] {
  const out: number[] = [];
  for (const p of log.store.duplicates) if (p < log.length) out.push(p);
  return out;
}

/** Whether the entry at `pos` is the indexed one for its id (not shadowed by a later one). */
export function isIndexedAt(log: EntryLog, pos: number): boolean {
  return positionOf(log, entryAt(log, pos).id) === pos;
}

/** Position of the first occurrence of the id of the entry at `pos`. */
function firstOccurrence(log: EntryLog, pos: number): number {
  let p = pos;
  for (let q = log.store.previous.get(p); q !== undefined; q = log.store.previous.get(q)) p = q;
  return p;
}

/**
 * Indexed entries whose `parentId` is exactly `parentId`, in file order (SPEC §7.7). Costs
 * the number of children. With duplicate ids the reference orders by the first occurrence of
 * each id (Map insertion order), which we reproduce on that rare path only.
 */
export function childrenOf(log: EntryLog, parentId: string): SessionEntry[] {
  const found = childrenIndex(log.store).get(parentId);
  if (found === undefined) return [];
  const list = typeof found === "number" ? [found] : found;
  const out: SessionEntry[] = [];
  const hasDuplicates = log.distinct !== log.length;
  let end = list.length;
  while (end > 0 && (list[end - 1] as number) >= log.length) end--;
  if (!hasDuplicates) {
    for (let i = 0; i < end; i++) out.push(log.store.entries[list[i] as number] as SessionEntry);
    return out;
  }
  const kept: number[] = [];
  for (let i = 0; i < end; i++) {
    const pos = list[i] as number;
    if (isIndexedAt(log, pos)) kept.push(pos);
  }
  kept.sort((a, b) => firstOccurrence(log, a) - firstOccurrence(log, b));
  for (const pos of kept) out.push(entryAt(log, pos));
  return out;
}
