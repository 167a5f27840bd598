/**
 * The reference implementation (npm @earendil-works/pi-coding-agent@1.6.0), loaded by file
 * path: its package exports do not expose the session module. Only the part the benchmarks
 * call is typed here, so its declaration files (and their dependencies) are not needed.
 */

import { loadReference as loadReferenceModule } from "@pi-sessions/test-utils/reference";

/** The reference `SessionManager` methods the benchmarks call. */
export interface RefManager {
  appendMessage(message: unknown): string;
  buildSessionContext(): { messages: unknown[] };
  getBranch(fromId?: string): unknown[];
  getChildren(parentId: string): unknown[];
  getEntryCount(): number;
  getLeafId(): string | null;
}

/** The reference session module (the part used here). */
export interface RefModule {
  SessionManager: {
    inMemory(cwd?: string, options?: unknown, entries?: unknown[]): RefManager;
    /** Opens a session file; appends then go to it with `appendFileSync`. */
    open(path: string, sessionDir?: string, cwdOverride?: string): RefManager;
  };
  parseSessionEntries(text: string): unknown[];
}

/** Imports the reference's session module. */
export function loadReference(): Promise<RefModule> {
  return loadReferenceModule<RefModule>();
}
