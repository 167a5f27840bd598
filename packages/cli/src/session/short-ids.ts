/**
 * Session ids as tables show them: the shortest prefix, at least {@link MIN_SHORT_ID}
 * characters, that names one session among all the ids a `<session>` argument resolves
 * against. pi's ids are UUIDv7, whose first characters are a clock: sessions started within
 * about a minute share their first eight, so a fixed-width cut would print prefixes that
 * cannot be typed back. {@link idHasPrefix} is the match `resolve-session.ts` uses, so what
 * is shown and what is accepted follow one rule. Nothing here reads a file (`header-ids.ts`
 * does), so `ls --all`, which has every id at hand, loads no session reader for it.
 */

/** The fewest characters an id is shortened to; a longer prefix only where this one is shared. */
export const MIN_SHORT_ID = 8;

/** Whether `id` is named by the prefix `prefix` (a `<session>` argument): the one match rule. */
export function idHasPrefix(id: string, prefix: string): boolean {
  return id.startsWith(prefix);
}

/** How many leading characters two strings share. */
function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Each id's longest prefix shared with a neighbour among `sorted` (sorted, duplicates side by
 * side and counted once), in one pass: only neighbours in sorted order can share the longest.
 */
function sharedLengths(sorted: readonly string[]): Map<string, number> {
  const shared = new Map<string, number>();
  let previous = 0;
  for (let k = 0; k < sorted.length; ) {
    const id = sorted[k] as string;
    let after = k + 1;
    while (after < sorted.length && sorted[after] === id) after++;
    const next = sorted[after];
    const following = next === undefined ? 0 : commonPrefixLength(id, next);
    shared.set(id, Math.max(previous, following));
    previous = following;
    k = after;
  }
  return shared;
}

/** `id` cut to one character more than it shares with a neighbour, at least {@link MIN_SHORT_ID}. */
const cut = (id: string, shared: number) => id.slice(0, Math.max(MIN_SHORT_ID, shared + 1));

/**
 * A function from an id to its shortest unique prefix among `all` (which should hold it): at
 * least {@link MIN_SHORT_ID} characters, one more than it shares with its closest neighbour in
 * sorted order (only neighbours can share the longest prefix), and the whole id when no prefix
 * is unique (an id that is a prefix of another resolves by exact match; an id two files share
 * is ambiguous at any length, so it gets the length its other neighbours call for). An id not in `all` is measured against its would-be neighbours.
 */
export function shortIdsAmong(all: Iterable<string>): (id: string) => string {
  const sorted = [...all].sort();
  const shared = sharedLengths(sorted);
  const lengthOf = (id: string): number => {
    const known = shared.get(id);
    if (known !== undefined) return known;
    // Binary search for where `id` sits among the sorted ids (it is not one of them).
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((sorted[mid] as string) < id) lo = mid + 1;
      else hi = mid;
    }
    const before = sorted[lo - 1];
    const after = sorted[lo];
    const longest = Math.max(
      before === undefined ? 0 : commonPrefixLength(id, before),
      after === undefined ? 0 : commonPrefixLength(id, after),
    );
    shared.set(id, longest);
    return longest;
  };
  return (id) => cut(id, lengthOf(id));
}

/**
 * Every id of `ids` as {@link shortIdsAmong}`(ids)` shortens it, in order: what a table that
 * lists every id (`ls --all`) shows, without a function call and a lookup of its own per id.
 */
export function shortIdsOf(ids: readonly string[]): string[] {
  // Reversed first: pi's ids begin with their session's start time, so a table's ids, newest
  // first, reversed are nearly in order already, which the sort then merely confirms.
  const shared = sharedLengths(ids.slice().reverse().sort());
  return ids.map((id) => cut(id, shared.get(id) as number));
}
