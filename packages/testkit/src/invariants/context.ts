/**
 * I8: the context entries are drawn from the leaf's path (plus the compaction), in path order,
 * and nothing before `firstKeptEntryId` survives a compaction (SPEC §8.1, §8.3).
 */
import { type EntryView, guard, type SessionView, type Violation, violation } from "./types.js";

/** Options of {@link checkI8ContextFromPath}. */
export interface ContextCheckOptions {
  /**
   * The module's free `buildContextEntries(entries, leafId)` (SPEC §8). With it, the context
   * of every id in `leafIds` is checked too, not only the manager's current leaf.
   */
  buildContextEntries?(entries: EntryView[], leafId?: string | null): readonly EntryView[];
  /** Leaves checked with the free function (default: every id). */
  leafIds?: readonly string[];
}

function isSystemMessage(e: EntryView): boolean {
  return e.type === "message" && (e as { message?: { role?: unknown } }).message?.role === "system";
}

/** Index of the last compaction on a path, or -1. */
function lastCompaction(path: readonly EntryView[]): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i]?.type === "compaction") return i;
  return -1;
}

/** Index (before the compaction at `c`) of its `firstKeptEntryId`, or -1. */
function keptIndex(path: readonly EntryView[], c: number): number {
  const kept = (path[c] as { firstKeptEntryId?: unknown } | undefined)?.firstKeptEntryId;
  return path.findIndex((e, i) => i < c && e.id === kept);
}

/**
 * The context entries SPEC §8.3 gives for a path (the oracle of I8: context entries come from the
 * leaf's path, in order).
 */
export function expectedContextEntries(path: readonly EntryView[]): EntryView[] {
  const c = lastCompaction(path);
  if (c < 0) return path.slice();
  const k = keptIndex(path, c);
  const kept = k < 0 ? [] : path.slice(k, c).filter((e) => !isSystemMessage(e));
  return [path[c] as EntryView, ...kept, ...path.slice(c + 1)];
}

/** Compares one context against its path; `where` names the leaf in messages. */
function checkContext(
  path: readonly EntryView[],
  context: readonly EntryView[],
  where: string,
  out: Violation[],
): void {
  const index = new Map(path.map((e, i) => [e.id, i] as const));
  const c = lastCompaction(path);
  const k = c < 0 ? -1 : keptIndex(path, c);
  const compaction = path[c];
  let last = -1;
  context.forEach((e, i) => {
    const at = index.get(e.id);
    if (at === undefined) {
      out.push(violation("I8", `${where}: ${e.id} is not on the leaf's path`, { entryId: e.id }));
      return;
    }
    // The compaction itself leads; everything after it follows path order.
    if (compaction && i === 0 && at === c) return;
    if (at <= last)
      out.push(violation("I8", `${where}: ${e.id} is out of path order`, { entryId: e.id }));
    last = at;
    if (compaction && at < c && (k < 0 || at < k)) {
      const msg = `${where}: ${e.id} comes before firstKeptEntryId of ${compaction.id} and survived it`;
      out.push(violation("I8", msg, { entryId: e.id }));
    }
  });
  if (compaction && context[0]?.id !== compaction.id) {
    const msg = `${where}: the context does not start with compaction ${compaction.id}`;
    out.push(violation("I8", msg, { entryId: compaction.id }));
  }
  const got = context.map((e) => e.id).join(",");
  const want = expectedContextEntries(path)
    .map((e) => e.id)
    .join(",");
  if (got !== want)
    out.push(violation("I8", `${where}: context is [${got}], SPEC §8.3 gives [${want}]`));
}

/**
 * I8 (context entries come from the leaf's path, in order) at the current leaf
 * (`buildContextEntries()` of the session, or the free function when the session has none) and,
 * given the free function, at every id of `options.leafIds`.
 */
export function checkI8ContextFromPath(
  session: SessionView,
  options: ContextCheckOptions = {},
): Violation[] {
  return guard("I8", (out) => {
    const leaf = session.getLeafId();
    const path = leaf === null ? [] : session.getBranch(leaf);
    const free = options.buildContextEntries?.bind(options);
    const context = session.buildContextEntries
      ? session.buildContextEntries()
      : free?.([...session.getEntries()], leaf);
    if (!context) {
      out.push(violation("I8", "the session has no buildContextEntries and none was given"));
      return;
    }
    checkContext(path, context, `leaf ${leaf}`, out);
    if (!free) return;
    const entries = [...session.getEntries()];
    for (const id of options.leafIds ?? entries.map((e) => e.id)) {
      checkContext(session.getBranch(id), free(entries, id), `leaf ${id}`, out);
    }
  });
}
