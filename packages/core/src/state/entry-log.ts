/**
 * The append-only entry log's operations: appends (decoded entries or their lines), logs over a
 * load's entries or columns, lookups by id and position, children, and the entries as callers
 * get them (handles decoded on read). Its shapes and the body decode are in `log-store.ts`.
 */

import type { SessionEntry } from "../schema/types.js";
import type { EntryColumns, EntryHead, EntryLog, LogStore } from "./log-store.js";
import { decodedAt, makeHandle } from "./log-store.js";

export type { EntryColumns, EntryHead, EntryLog, EntrySource, LogStore } from "./log-store.js";
export { EntryUnreadableError } from "./log-store.js";

function emptyStore(columns?: EntryColumns): LogStore {
  return {
    ids: columns?.ids ?? [],
    parents: columns?.parents ?? [],
    types: columns?.types ?? [],
    roles: columns?.roles ?? new Array(columns?.ids.length ?? 0),
    timestamps: columns?.timestamps,
    slots: columns?.slots ?? [],
    source: columns?.source,
    handles: [],
    messageHandles: [],
    latest: new Map(),
    previous: new Map(),
    children: undefined,
    duplicates: [],
  };
}

function indexChild(children: Map<string, number | number[]>, parent: unknown, pos: number) {
  if (typeof parent !== "string") return;
  const list = children.get(parent);
  if (list === undefined) children.set(parent, pos);
  else if (typeof list === "number") children.set(parent, [list, pos]);
  else list.push(pos);
}

/** Indexes the id at `pos`; returns whether it was new. */
function indexId(store: LogStore, pos: number): boolean {
  const id = store.ids[pos] as string;
  const prev = store.latest.get(id);
  store.latest.set(id, pos);
  if (prev === undefined) return true;
  store.previous.set(pos, prev);
  store.duplicates.push(pos);
  return false;
}

function pushToStore(
  store: LogStore,
  head: EntryHead,
  slot: SessionEntry | string | undefined,
): boolean {
  const pos = store.ids.push(head.id) - 1;
  store.parents.push(head.parentId);
  store.types.push(head.type);
  store.roles.push(head.role);
  store.slots.push(slot);
  if (store.children) indexChild(store.children, head.parentId, pos);
  return indexId(store, pos);
}

/** The store a snapshot may append to: its own, or a copy of its prefix (a fork of the past). */
function storeToExtend(log: EntryLog): LogStore {
  const old = log.store;
  if (old.ids.length === log.length) return old;
  const store = emptyStore();
  for (let i = 0; i < log.length; i++) {
    // The copy reads bodies from the old store: decoded there (sharing it) or on demand.
    const slot = old.slots[i] ?? handleAt(log, i);
    pushToStore(
      store,
      { id: old.ids[i] as string, parentId: old.parents[i], type: old.types[i] },
      slot,
    );
  }
  return store;
}

/** The log with `entry` (decoded) appended: O(1) amortised, O(length) once when forking. */
export function appendToLog(log: EntryLog, entry: SessionEntry): EntryLog {
  const store = storeToExtend(log);
  const { id, parentId, type } = entry;
  const isNew = pushToStore(store, { id, parentId, type }, entry);
  return { store, length: log.length + 1, distinct: log.distinct + (isNew ? 1 : 0) };
}

/** The log with the entry whose JSON is `line` appended, decoded only when read. */
export function appendLineToLog(log: EntryLog, head: EntryHead, line: string): EntryLog {
  const store = storeToExtend(log);
  const isNew = pushToStore(store, head, line);
  return { store, length: log.length + 1, distinct: log.distinct + (isNew ? 1 : 0) };
}

/** Indexes the ids of a fresh store; returns the distinct count. */
function indexAll(store: LogStore): number {
  const { ids, latest } = store;
  const n = ids.length;
  // With unique ids one Map write per entry is all it takes (a duplicate shows as a Map that
  // did not grow); only a log with duplicates pays the second, careful pass.
  for (let pos = 0; pos < n && latest.size === pos; pos++) latest.set(ids[pos] as string, pos);
  if (latest.size === n) return n;
  latest.clear();
  let distinct = 0;
  for (let pos = 0; pos < n; pos++) if (indexId(store, pos)) distinct++;
  return distinct;
}

/** A log of entries in file order, owning the array (a load's, uncopied): do not change it. */
export function logFromEntries(entries: SessionEntry[]): EntryLog {
  const n = entries.length;
  const ids = new Array<string>(n);
  const parents = new Array<unknown>(n);
  const types = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const entry = entries[i] as SessionEntry;
    ids[i] = entry.id;
    parents[i] = entry.parentId;
    types[i] = entry.type;
  }
  const store = emptyStore({ ids, parents, types, slots: entries });
  return { store, length: n, distinct: indexAll(store) };
}

/** A log over a load's columns (handed over, uncopied): bodies decode from `source` on demand. */
export function logFromColumns(columns: EntryColumns): EntryLog {
  const store = emptyStore(columns);
  return { store, length: store.ids.length, distinct: indexAll(store) };
}

/** Position of the indexed (latest) entry with this id within the snapshot, or -1. */
export function positionOf(log: EntryLog, id: string): number {
  let pos = log.store.latest.get(id);
  // Back past occurrences appended after this snapshot was taken.
  while (pos !== undefined && pos >= log.length) pos = log.store.previous.get(pos);
  return pos ?? -1;
}

/** The id at a position `< log.length`. */
export function idAt(log: EntryLog, pos: number): string {
  return log.store.ids[pos] as string;
}

/** The `parentId` value at a position (any JSON value a foreign writer put there). */
export function parentIdAt(log: EntryLog, pos: number): unknown {
  return log.store.parents[pos];
}

/** The `type` value at a position. */
export function typeAt(log: EntryLog, pos: number): unknown {
  return log.store.types[pos];
}

/** A message entry's `message.role` (decoding the entry only when the log does not know it). */
export function roleAt(log: EntryLog, pos: number): unknown {
  const role = log.store.roles[pos];
  if (role !== undefined || log.store.types[pos] !== "message") return role;
  const message = (entryAt(log, pos) as { message?: unknown }).message;
  return typeof message === "object" && message !== null
    ? (message as { role?: unknown }).role
    : undefined;
}

/**
 * The decoded entry at a position `< log.length`, decoded now if it was not: what the core reads
 * bodies from. Throws {@link EntryUnreadableError} when its text no longer holds it.
 */
export function entryAt(log: EntryLog, pos: number): SessionEntry {
  return decodedAt(log.store, pos);
}

/**
 * The entry at a position as callers get it: the decoded entry, or, before it is decoded, a
 * handle that reads the tree fields from the log and decodes on any other read. One object per
 * position for the store's life, so identity holds across calls.
 */
export function handleAt(log: EntryLog, pos: number): SessionEntry {
  const store = log.store;
  const given = store.handles[pos];
  if (given !== undefined) return given;
  const slot = store.slots[pos];
  if (typeof slot === "object") return slot;
  const handle = makeHandle(store, pos);
  store.handles[pos] = handle;
  return handle;
}

/** The JSON text of the entry at a position (its line as loaded or appended, else re-serialised). */
export function lineAt(log: EntryLog, pos: number): string {
  const slot = log.store.slots[pos];
  if (typeof slot === "string") return slot;
  if (slot === undefined && log.store.source) return log.store.source.line(pos);
  return JSON.stringify(slot);
}

/** The indexed entry with this id (last occurrence wins, SPEC W15), as callers get it. */
export function getLogEntry(log: EntryLog, id: string): SessionEntry | undefined {
  const pos = positionOf(log, id);
  return pos < 0 ? undefined : handleAt(log, pos);
}

/** Whether `id` was ever used in the snapshot, including shadowed duplicates. */
export function hasSeenId(log: EntryLog, id: string): boolean {
  return positionOf(log, id) >= 0;
}

/** The last entry in file order, as callers get it. */
export function lastEntry(log: EntryLog): SessionEntry | undefined {
  return log.length === 0 ? undefined : handleAt(log, log.length - 1);
}

/** A new array of the snapshot's entries in file order, as callers get them. */
export function logEntries(log: EntryLog): SessionEntry[] {
  const out = new Array<SessionEntry>(log.length);
  for (let i = 0; i < log.length; i++) out[i] = handleAt(log, i);
  return out;
}

/**
 * Positions of the indexed entries whose `parentId` is exactly `parentId`, in file order
 * (SPEC §7.7). Costs the number of children. With duplicate ids the reference orders by the
 * first occurrence of each id (Map insertion order), which we reproduce on that rare path only.
 */
export function childPositions(log: EntryLog, parentId: string): number[] {
  const store = log.store;
  if (!store.children) {
    store.children = new Map();
    for (let i = 0; i < store.ids.length; i++) indexChild(store.children, store.parents[i], i);
  }
  const found = store.children.get(parentId) ?? [];
  let list = (typeof found === "number" ? [found] : found).filter((pos) => pos < log.length);
  if (log.distinct !== log.length) {
    const first = (pos: number) => {
      let p = pos;
      for (let q = store.previous.get(p); q !== undefined; q = store.previous.get(q)) p = q;
      return p;
    };
    list = list.filter((pos) => positionOf(log, idAt(log, pos)) === pos);
    list.sort((a, b) => first(a) - first(b));
  }
  return list;
}

/** {@link childPositions} as entries, as callers get them. */
export function childrenOf(log: EntryLog, parentId: string): SessionEntry[] {
  return childPositions(log, parentId).map((pos) => handleAt(log, pos));
}
