/**
 * The queries `export` and `usage` ask of a session loaded by the shared read-only loader
 * (`../load-session.ts`), over its replayed state.
 */
import { branchOf, labelOfId, nameOf, type SessionEntry } from "@pi-sessions/core";
import type { LoadedSession } from "../session/load-session.js";

/** A loaded session plus its leaf, name, branch paths and labels. */
export interface SessionView extends LoadedSession {
  /** The leaf the file ends at (null for a session without entries). */
  readonly leafId: string | null;
  readonly name: string | undefined;
  /** Root → `leafId`; `[]` for null or an unknown id. */
  branch(leafId: string | null): SessionEntry[];
  /** The current label of an entry. */
  label(id: string): string | undefined;
}

/** The {@link SessionView} of a loaded session. */
export function viewOf(s: LoadedSession): SessionView {
  return {
    ...s,
    leafId: s.state.leafId,
    name: nameOf(s.state),
    branch: (leafId) => (leafId === null ? [] : branchOf(s.state, leafId)),
    label: (id) => labelOfId(s.state, id),
  };
}
