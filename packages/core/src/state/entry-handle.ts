/**
 * What callers get for an entry the log has not decoded yet: a stand-in that answers `id`,
 * `parentId` and `type` from the log's columns and decodes the entry (once, into the log) at any
 * other read, then behaves as the decoded entry in every way a plain object can be observed:
 * property reads and writes, `in`, keys in the line's order, descriptors, spread, `JSON.stringify`
 * (SPEC §0.1 item 3: what it shows is the line's JSON value). pi walks `getBranch()` reading each
 * entry's `type` and only the last few bodies; this is how that costs the path, not the file.
 * Like every entry we hand out it is read-only by contract (W20); it is not a plain object to
 * `structuredClone`, which no caller of the manager uses on entries.
 */

import type { SessionEntry } from "../schema/types.js";

/** The columns a handle answers the tree fields from (the log's store). */
export interface HandleColumns {
  readonly ids: readonly unknown[];
  readonly parents: readonly unknown[];
  readonly types: readonly unknown[];
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
  const entryOf = (h: HandleHolder<S>): object => {
    h.entry ??= decode(h.store, h.pos);
    return h.entry;
  };
  const handler: ProxyHandler<HandleHolder<S>> = {
    get(h, key) {
      if (h.entry === undefined) {
        if (key === "id") return h.store.ids[h.pos];
        if (key === "type") return h.store.types[h.pos];
        if (key === "parentId") return h.store.parents[h.pos];
      }
      return Reflect.get(entryOf(h), key);
    },
    set: (h, key, value) => Reflect.set(entryOf(h), key, value),
    has: (h, key) => Reflect.has(entryOf(h), key),
    ownKeys: (h) => Reflect.ownKeys(entryOf(h)),
    getOwnPropertyDescriptor: (h, key) => Reflect.getOwnPropertyDescriptor(entryOf(h), key),
    defineProperty: (h, key, descriptor) => Reflect.defineProperty(entryOf(h), key, descriptor),
    deleteProperty: (h, key) => Reflect.deleteProperty(entryOf(h), key),
  };
  return (store, pos) =>
    new Proxy({ store, pos, entry: undefined }, handler) as unknown as SessionEntry;
}
