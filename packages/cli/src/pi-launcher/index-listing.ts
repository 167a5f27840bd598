/**
 * pi's session listings (`/resume`, `--resume`) through the session index, inside pi's process:
 * the index is opened once, on the first listing or the first open of a big session file
 * (vouched-open.ts; pi's start on a small one loads no SQLite), and kept for the
 * process. Any trouble with it — the addon missing, the file unusable, a listing that throws —
 * and the listing reads the files instead, as core does; an abort is passed on as it is. The
 * index answers exactly what the files say (its own contract), so pi cannot tell which answered.
 */

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { SessionInfo, SessionListProgress } from "@pi-sessions/core";
import type { SessionIndex } from "@pi-sessions/index";

/** The progress callback of a listing (core's). */
export type ListProgress = SessionListProgress;

/** The index of this process: opened on first use; `null` once it could not be opened. */
let opened: SessionIndex | null | undefined;

/**
 * Opens the default index (`$PI_SESSIONS_INDEX`, else the cache dir), or null on any trouble.
 * Synchronous, as a session's open asks for it inside core's synchronous load (vouched-open.ts):
 * the index's modules are required (Node loads ES modules that way too) only on first use.
 */
export function processIndex(): SessionIndex | null {
  if (opened !== undefined) return opened;
  try {
    // Resolved as an import (the package exports no `require` condition), then required.
    const file = fileURLToPath(import.meta.resolve("@pi-sessions/index"));
    const require = createRequire(import.meta.url);
    const { openSessionIndex } = require(file) as typeof import("@pi-sessions/index");
    // Its notices (a damaged index rebuilt) are not pi's business: the answer is right anyway.
    const index = openSessionIndex({ onNotice: () => {} });
    process.once("exit", () => index.close());
    opened = index;
  } catch {
    opened = null;
  }
  return opened;
}

/**
 * `viaIndex` on the process's index, else `viaFiles`. A listing the index failed (for a reason
 * other than `signal`'s abort) is redone from the files.
 */
export async function listThroughIndex(
  viaIndex: (index: SessionIndex) => Promise<SessionInfo[]>,
  viaFiles: () => Promise<SessionInfo[]>,
  signal: AbortSignal | undefined,
): Promise<SessionInfo[]> {
  const index = processIndex();
  if (index === null) return viaFiles();
  try {
    return await viaIndex(index);
  } catch (error) {
    if (signal?.aborted) throw error;
    return viaFiles();
  }
}
