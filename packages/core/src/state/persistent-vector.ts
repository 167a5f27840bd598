/**
 * A persistent append-only vector: snapshots share one backing array and each reads only its
 * first `length` items. Pushing onto the newest snapshot is O(1) amortised and copies nothing;
 * pushing onto an older one copies its prefix first, so no snapshot ever changes (DESIGN I9).
 */
export interface PersistentVector<T> {
  readonly items: readonly T[];
  readonly length: number;
}

/** A vector over `items`, which the caller hands over and must not change afterwards. */
export function vecOwning<T>(items: T[]): PersistentVector<T> {
  return { items, length: items.length };
}

/** The vector with `value` appended. */
export function vecPush<T>(vec: PersistentVector<T>, value: T): PersistentVector<T> {
  let items = vec.items as T[];
  if (items.length !== vec.length) items = items.slice(0, vec.length);
  items.push(value);
  return { items, length: vec.length + 1 };
}

/** A new array holding the vector's items. */
export function vecToArray<T>(vec: PersistentVector<T>): T[] {
  return vec.items.slice(0, vec.length);
}
