import type { SessionEnv } from "../env/env.js";
import { contextEntriesOfPath, projectionOfPath } from "../projections/context.js";
import { summaryMessages } from "../projections/context-cache.js";
import type { Projection } from "../projections/define-projection.js";
import type {
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionProjection,
  SessionTreeNode,
} from "../schema/types.js";
import { extraProjectionState, type SessionState } from "../state/session-state.js";
import { vecToArray } from "../state/vec.js";
import { type LoadDiagnostic, structuralDiagnostics } from "./diagnostics.js";
import type { LineMap } from "./line-map.js";
import * as q from "./session-queries.js";

/**
 * The read side of a session manager: identity, lookups, tree and context queries over the
 * current immutable `SessionState`. `SessionManager` adds the factories and every change;
 * keeping the two apart keeps each file about one concern.
 */
export abstract class SessionReader {
  protected abstract state: SessionState;
  protected abstract readonly env: SessionEnv;
  protected abstract projections: readonly Projection<unknown>[];
  protected abstract cwd: string;
  protected sessionDir = "";
  protected sessionFile: string | undefined = undefined;
  protected persist = false;
  protected loadDiagnostics: LoadDiagnostic[] = [];
  /** File line of each loaded entry (by position), when the session came from text. */
  protected entryLines: LineMap | undefined;

  /** Whether the session is backed by a file (true even before the file exists). */
  isPersisted(): boolean {
    return this.persist;
  }
  /** The resolved working directory. */
  getCwd(): string {
    return this.cwd;
  }
  /** The session directory (`""` in memory). */
  getSessionDir(): string {
    return this.sessionDir;
  }
  /** The session id from the header. */
  getSessionId(): string {
    return this.state.header?.id ?? "";
  }
  /** The session file path (undefined in memory). */
  getSessionFile(): string | undefined {
    return this.sessionFile;
  }
  /** The header record, or null. Read-only. */
  getHeader(): SessionHeader | null {
    return this.state.header;
  }
  /** The current immutable snapshot of the whole session. */
  getState(): SessionState {
    return this.state;
  }
  /** The state of a projection registered through `options.projections`, by name. */
  getProjectionState<S = unknown>(name: string): S | undefined {
    return extraProjectionState(this.state, name) as S | undefined;
  }
  /**
   * Problems found when the session was loaded (malformed lines, entries without ids,
   * migration notes) plus structural ones (duplicate ids, dangling parents, cycles).
   */
  getLoadDiagnostics(): LoadDiagnostic[] {
    return [
      ...this.loadDiagnostics,
      ...structuralDiagnostics(this.state.log, (pos) => this.entryLines?.lineOf(pos)),
    ];
  }

  /**
   * The 1-based file line of the entry at `position` (file order, as `FoldContext.position`),
   * when the session was loaded from text and the entry was loaded, not appended since.
   */
  getEntryLineNumber(position: number): number | undefined {
    return this.entryLines?.lineOf(position);
  }

  // --- leaf and tree --------------------------------------------------------------------

  /** The leaf id, or null. */
  getLeafId(): string | null {
    return this.state.leafId;
  }
  /** The leaf entry, or undefined when the leaf is null. */
  getLeafEntry(): SessionEntry | undefined {
    const leaf = this.state.leafId;
    return leaf === null ? undefined : q.entryOf(this.state, leaf);
  }
  /** The indexed entry with this id (the last one wins for duplicates). */
  getEntry(id: string): SessionEntry | undefined {
    return q.entryOf(this.state, id);
  }
  /** Direct children in file order. */
  getChildren(parentId: string): SessionEntry[] {
    return q.childrenOfId(this.state, parentId);
  }
  /** The current label of an entry. */
  getLabel(id: string): string | undefined {
    return q.labelOfId(this.state, id);
  }
  /** Entries from the root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): SessionEntry[] {
    return q.branchOf(this.state, fromId);
  }
  /** Compaction-aware context entries at the leaf. O(context) from the cached leaf path. */
  buildContextEntries(): SessionEntry[] {
    // The leaf's path, not getBranch(): getBranch treats a falsy id ("" is a valid one) as
    // "no start", while context must follow the leaf whatever its id.
    return contextEntriesOfPath(vecToArray(q.leafSummary(this.state).path));
  }
  /** Provenance-preserving context at the leaf. */
  buildSessionProjection(): SessionProjection {
    return projectionOfPath(vecToArray(q.leafSummary(this.state).path));
  }
  /** What is sent to the model at the leaf. O(context), from the incrementally kept summary. */
  buildSessionContext(): SessionContext {
    const summary = q.leafSummary(this.state);
    const { thinkingLevel, model } = summary.settings;
    return { messages: summaryMessages(summary), thinkingLevel, model: model && { ...model } };
  }
  /** The latest session name, trimmed, or undefined. */
  getSessionName(): string | undefined {
    return q.nameOf(this.state);
  }
  /** Number of distinct entry ids, without copying. */
  getEntryCount(): number {
    return this.state.log.distinct;
  }
  /** All entries in file order (a new array of read-only entries). */
  getEntries(): SessionEntry[] {
    return q.entriesOf(this.state);
  }
  /** The entry tree with labels. */
  getTree(): SessionTreeNode[] {
    return q.treeOf(this.state);
  }
}
