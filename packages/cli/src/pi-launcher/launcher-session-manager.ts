/**
 * The `SessionManager` pi gets through the launcher (swap-hooks.ts): core's, with `/resume` and
 * `--resume` answered by the session index (index-listing.ts), a giant session opened from
 * the layout the index vouches for (vouched-open.ts), and a session another pi process
 * writes continued in a fork of it instead of refused (second-writer.ts). Core never depends on
 * the index: the listing is swapped here, in a subclass only the launcher hands out (core's
 * factories make instances of the class they are called on).
 */

import {
  SessionManager as CoreSessionManager,
  type SessionInfo,
  type SessionManagerOptions,
  type SessionStore,
} from "@pi-sessions/core";
import { type ListProgress, listThroughIndex } from "./index-listing.js";
import { announceFork } from "./second-writer.js";
import { columnsFromIndex } from "./vouched-open.js";

/** Core's manager with the listings pi's session picker calls answered by the session index. */
export class LauncherSessionManager extends CoreSessionManager {
  protected constructor(cwd: string, options: SessionManagerOptions = {}, store?: SessionStore) {
    super(cwd, { whenRefused: "fork", columnsFor: columnsFromIndex, ...options }, store);
    this.events.on("sessionSwitched", (event) => {
      if (event.reason === "forked") announceFork(event);
    });
  }

  /** The sessions of `cwd` (SPEC §10.5), from the index when it answers, else the files. */
  static override list(
    cwd: string,
    sessionDir?: string,
    onProgress?: ListProgress,
    signal?: AbortSignal,
  ): Promise<SessionInfo[]> {
    return listThroughIndex(
      (index) => index.list(cwd, sessionDir, onProgress, signal),
      () => CoreSessionManager.list(cwd, sessionDir, onProgress, signal),
      signal,
    );
  }

  /** Every session, or those of one `sessionDir` (SPEC §10.5), through the index when it answers. */
  static override listAll(onProgress?: ListProgress, signal?: AbortSignal): Promise<SessionInfo[]>;
  static override listAll(
    sessionDir?: string,
    onProgress?: ListProgress,
    signal?: AbortSignal,
  ): Promise<SessionInfo[]>;
  static override listAll(
    first?: string | ListProgress,
    second?: ListProgress | AbortSignal,
    third?: AbortSignal,
  ): Promise<SessionInfo[]> {
    const signal = (typeof first === "string" ? third : second) as AbortSignal | undefined;
    // The same arguments go on as they came: both listings read them by the same rule.
    const args = [first, second, third] as Parameters<typeof CoreSessionManager.listAll>;
    return listThroughIndex(
      (index) => (index.listAll as (...a: typeof args) => Promise<SessionInfo[]>)(...args),
      () => CoreSessionManager.listAll(...args),
      signal,
    );
  }
}

export { LauncherSessionManager as SessionManager };
