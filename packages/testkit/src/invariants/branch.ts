/**
 * I3: `getBranch(x)` runs root → x, each step parent → child, and the leaf is `null` or an
 * existing id (SPEC §7.1, §7.6).
 */
import { type EntryView, guard, type SessionView, type Violation, violation } from "./types.js";

/** An id no implementation will have: `getBranch` of it must be empty. */
const ABSENT_ID = "\u0000testkit-absent-id";

/** Options of {@link checkI3BranchPaths}. */
export interface BranchCheckOptions {
  /** Ids whose branch is checked (default: every id, and the leaf). */
  ids?: readonly string[];
}

/** id → indexed entry (the last occurrence wins, SPEC W15). */
export function indexEntries(entries: readonly EntryView[]): Map<string, EntryView> {
  const byId = new Map<string, EntryView>();
  for (const e of entries) byId.set(e.id, e);
  return byId;
}

/**
 * I3. For each id: the branch is not empty and ends at that entry; each step goes from a
 * parent to its child; no id repeats; the first entry is a root (null parent, missing parent,
 * its own parent, or a walk stopped at a repeated id, W14); every step is the indexed entry.
 * Also: the leaf is null or known, `getBranch()` is the leaf's branch, and an unknown id has
 * an empty branch.
 */
export function checkI3BranchPaths(
  session: SessionView,
  options: BranchCheckOptions = {},
): Violation[] {
  return guard("I3", (out) => {
    const byId = indexEntries(session.getEntries());
    const leaf = session.getLeafId();
    if (leaf !== null && session.getEntry(leaf) === undefined) {
      out.push(violation("I3", `the leaf ${leaf} is not an existing id`, { entryId: leaf }));
    }
    const ids = options.ids ?? [...byId.keys()];
    for (const id of ids) checkBranch(session, byId, id, out);
    const atLeaf = session.getBranch().map((e) => e.id);
    const expected = leaf === null ? [] : session.getBranch(leaf).map((e) => e.id);
    if (atLeaf.join("\n") !== expected.join("\n")) {
      out.push(
        violation("I3", "getBranch() differs from getBranch(leaf)", { entryId: leaf ?? undefined }),
      );
    }
    if (session.getBranch(ABSENT_ID).length !== 0) {
      out.push(violation("I3", "getBranch of an unknown id is not empty"));
    }
  });
}

function checkBranch(
  session: SessionView,
  byId: ReadonlyMap<string, EntryView>,
  id: string,
  out: Violation[],
): void {
  const path = session.getBranch(id);
  const at = { entryId: id };
  if (path.length === 0) {
    out.push(violation("I3", "the branch of an existing entry is empty", at));
    return;
  }
  if (path[path.length - 1]?.id !== id) {
    out.push(
      violation("I3", `the branch ends at ${path[path.length - 1]?.id}, not at the entry`, at),
    );
  }
  const seen = new Set<string>();
  path.forEach((e, i) => {
    if (seen.has(e.id)) out.push(violation("I3", `the branch repeats ${e.id}`, at));
    seen.add(e.id);
    const indexed = byId.get(e.id);
    if (!indexed || indexed.parentId !== e.parentId || indexed.type !== e.type) {
      out.push(violation("I3", `step ${i} (${e.id}) is not the indexed entry`, at));
    }
    const prev = path[i - 1];
    if (prev && e.parentId !== prev.id) {
      out.push(violation("I3", `step ${i} (${e.id}) is not a child of ${prev.id}`, at));
    }
  });
  const first = path[0] as EntryView;
  const p = first.parentId;
  const isRoot = p === null || p === first.id || !byId.has(p) || seen.has(p);
  if (!isRoot) {
    out.push(violation("I3", `the branch starts at ${first.id}, whose parent ${p} exists`, at));
  }
}
