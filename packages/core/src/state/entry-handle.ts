/**
 * What callers get for an entry the log has not decoded yet: a stand-in that answers `id`,
 * `parentId` and `type` (and `timestamp`, when a reader knew it) from the log's columns and
 * decodes the entry (once, into the log) at any other read, then behaves as the decoded entry in every way a plain object can be observed:
 * property reads and writes, `in`, keys in the line's order, descriptors, spread, `JSON.stringify`
 * (SPEC §0.1 item 3: what it shows is the line's JSON value). pi walks `getBranch()` at start,
 * reading every entry's `type` and every message's `role` (the system messages carry its tool
 * loadout), and the bodies of only the last few: a message entry's `message` is, likewise, a
 * stand-in answering `role` from the log's column until anything else is read. This is how a
 * start costs the path, not the file. Like every entry we hand out they are read-only by
 * contract (W20); they are not plain objects to `structuredClone`, which pi uses only on the
 * context's messages (`buildSessionContext` gives decoded ones), never on entries.
 */

import type { SessionEntry } from "../schema/types.js";

/** The columns a handle answers from (the log's store), and where message stand-ins are kept. */
export interface HandleColumns {
  readonly ids: readonly unknown[];
  readonly parents: readonly unknown[];
  readonly types: readonly unknown[];
  /** A message entry's `message.role` when the load or append knew it, else undefined. */
  readonly roles: readonly unknown[];
  /** An entry's `timestamp` when known without decoding it (see `EntryColumns`). */
  readonly timestamps?: readonly unknown[];
  /** The `message` stand-in given out for each position (one per position, for identity). */
  readonly messageHandles: (object | undefined)[];
}

/** The state behind one handle: where its entry is, and the entry once decoded. */
export interface HandleHolder<S extends HandleColumns> {
  readonly store: S;
  readonly pos: number;
  entry: SessionEntry | undefined;
}

/**
 * A maker of handles over stores of type `S`, decoding with `decode` (the log's decoder; passed
 * in, so this module needs nothing of the log's).
 */
export function handleMaker<S extends HandleColumns>(
  decode: (store: S, pos: number) => SessionEntry,
): (store: S, pos: number) => SessionEntry {
  const entryOf = (h: HandleHolder<S>): SessionEntry => {
    h.entry ??= decode(h.store, h.pos);
    return h.entry;
  };
  const messageOf = (h: HandleHolder<S>): object =>
    (entryOf(h) as unknown as { message: object }).message;

  /** The `message` stand-in: `role` from the column, anything else from the decoded message. */
  const messageHandler: ProxyHandler<HandleHolder<S>> = {
    get: (h, key) =>
      key === "role" && h.entry === undefined
        ? h.store.roles[h.pos]
        : Reflect.get(messageOf(h), key),
    set: (h, key, value) => Reflect.set(messageOf(h), key, value),
    has: (h, key) => Reflect.has(messageOf(h), key),
    ownKeys: (h) => Reflect.ownKeys(messageOf(h)),
    getOwnPropertyDescriptor: (h, key) => Reflect.getOwnPropertyDescriptor(messageOf(h), key),
    defineProperty: (h, key, descriptor) => Reflect.defineProperty(messageOf(h), key, descriptor),
    deleteProperty: (h, key) => Reflect.deleteProperty(messageOf(h), key),
  };

  /** The entry's `message` as callers get it: the stand-in once given out, else as decoded. */
  const messageFor = (h: HandleHolder<S>): unknown => {
    const given = h.store.messageHandles[h.pos];
    if (given !== undefined) return given;
    if (h.entry === undefined && typeof h.store.roles[h.pos] === "string") {
      // The same holder as the entry's: both stand-ins see one decode.
      const stand = new Proxy(h, messageHandler);
      h.store.messageHandles[h.pos] = stand;
      return stand;
    }
    return messageOf(h);
  };

  const handler: ProxyHandler<HandleHolder<S>> = {
    get(h, key) {
      if (h.entry === undefined) {
        if (key === "id") return h.store.ids[h.pos];
        if (key === "type") return h.store.types[h.pos];
        if (key === "parentId") return h.store.parents[h.pos];
        if (key === "timestamp") {
          const timestamp = h.store.timestamps?.[h.pos];
          if (timestamp !== undefined) return timestamp;
        }
      }
      if (key === "message" && h.store.types[h.pos] === "message") return messageFor(h);
      return Reflect.get(entryOf(h), key);
    },
    set: (h, key, value) => Reflect.set(entryOf(h), key, value),
    has: (h, key) => Reflect.has(entryOf(h), key),
    ownKeys: (h) => Reflect.ownKeys(entryOf(h)),
    getOwnPropertyDescriptor(h, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(entryOf(h), key);
      const given = key === "message" ? h.store.messageHandles[h.pos] : undefined;
      return given === undefined || descriptor === undefined
        ? descriptor
        : { ...descriptor, value: given };
    },
    defineProperty: (h, key, descriptor) => Reflect.defineProperty(entryOf(h), key, descriptor),
    deleteProperty: (h, key) => Reflect.deleteProperty(entryOf(h), key),
  };
  return (store, pos) =>
    new Proxy({ store, pos, entry: undefined }, handler) as unknown as SessionEntry;
}
