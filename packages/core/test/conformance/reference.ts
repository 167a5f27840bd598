/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0), loaded by file path
 * as a black-box oracle: its package exports do not expose the session module. Nothing here
 * copies its code; we only call its public API and compare what it returns with ours.
 */
import type {
  AgentMessage,
  FileEntry,
  SessionContext,
  SessionEntry,
  SessionManager,
  SessionProjection,
} from "@pi-sessions/core";

/**
 * The manager surface both implementations share and the conformance tests drive. Typed from
 * our class so one op runner serves both; the reference satisfies it at run time.
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

const url = new URL(
  "../../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

/** Imports the reference's session module (cached by the module loader). */
export async function loadReference(): Promise<ReferenceModule> {
  return (await import(url.href)) as ReferenceModule;
}

/** Fast-check settings shared by the property tests: run count and seed from the env. */
export function fcSettings(defaultRuns = 300): { numRuns: number; seed?: number; path?: string } {
  const runs = Number(process.env.FC_RUNS);
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  return {
    numRuns: Number.isFinite(runs) && runs > 0 ? runs : defaultRuns,
    ...(seed !== undefined && seed !== "" ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}
