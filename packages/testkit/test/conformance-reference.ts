/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0, a devDependency),
 * loaded by file path as a black-box oracle: its package exports do not expose the session
 * module. Nothing copies its code; the tests only call its public API.
 */
import type {
  AgentMessage,
  FileEntry,
  SessionContext,
  SessionEntry,
  SessionManager,
  SessionProjection,
} from "@pi-sessions/core";
import { loadReference } from "@pi-sessions/test-utils/reference";

/** The reference's session module, loaded once for the workspace by test-utils. */
export { loadReference };

/**
 * The manager surface both implementations share and the conformance tests drive. Typed from
 * core's class so one test serves both; the reference satisfies it at run time.
 */
export type ManagerApi = Pick<
  SessionManager,
  | "appendMessage"
  | "appendThinkingLevelChange"
  | "appendModelChange"
  | "appendCompaction"
  | "appendCustomEntry"
  | "appendCustomMessageEntry"
  | "appendSessionInfo"
  | "appendLabelChange"
  | "appendUsage"
  | "appendContextEdit"
  | "branch"
  | "resetLeaf"
  | "branchWithSummary"
  | "createBranchedSession"
  | "getEntries"
  | "getEntry"
  | "getEntryCount"
  | "getLeafId"
  | "getLeafEntry"
  | "getBranch"
  | "getTree"
  | "getLabel"
  | "getChildren"
  | "getSessionName"
  | "getHeader"
  | "getSessionId"
  | "getSessionFile"
  | "getSessionDir"
  | "getCwd"
  | "isPersisted"
  | "buildSessionContext"
  | "buildSessionProjection"
  | "buildContextEntries"
>;

/** A reference manager: the shared surface plus its public per-entry persistence hook. */
export type ReferenceManager = ManagerApi & { _persist(entry: SessionEntry): void };

/** Free functions of the session module that take `(entries, leafId?)`. */
type FreeContextFn<R> = (entries: SessionEntry[], leafId?: string | null) => R;

/** The part of the reference's session module these tests call. */
export interface ReferenceModule {
  SessionManager: {
    inMemory(cwd?: string, options?: { id?: string }, entries?: FileEntry[]): ReferenceManager;
  };
  parseSessionEntries(text: string): unknown[];
  migrateSessionEntries(records: unknown[]): void;
  buildSessionContext: FreeContextFn<SessionContext>;
  buildSessionProjection: FreeContextFn<SessionProjection>;
  buildContextEntries: FreeContextFn<SessionEntry[]>;
  getLatestCompactionEntry(entries: SessionEntry[]): SessionEntry | null;
  sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[];
}

/** The reference's session module, typed with core's types (it has the same shapes). */
export async function loadReferenceModule(): Promise<ReferenceModule> {
  return (await loadReference()) as unknown as ReferenceModule;
}

/** `SessionManager.inMemory` of a loaded session module. */
export function inMemoryOf(module: Record<string, unknown>): () => object {
  const statics = module.SessionManager as { inMemory(cwd?: string): object };
  return () => statics.inMemory("/work/project");
}

/** The folder of real pi session files (test-utils decides where it is). */
export { CORPUS_DIR } from "@pi-sessions/test-utils/corpus";
