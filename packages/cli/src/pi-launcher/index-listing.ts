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
import { isNamedIndexInMissingFolder } from "../io/named-index-folder.js";
import { sayIndexFallback } from "./fallback-notice.js";

/** The progress callback of a listing (core's). */
export type ListProgress = SessionListProgress;

/** The index of this process: opened on first use; `null` once it could not be opened. */
let opened: SessionIndex | null | undefined;

type IndexModule = typeof import("@pi-sessions/index");

/** Opens the default index (`$PI_SESSIONS_INDEX`, else the cache dir), or null on any trouble. */
function openDefault({
  defaultIndexFile,
  INDEX_FILE_ENV,
  openSessionIndex,
}: IndexModule): SessionIndex | null {
  try {
    // A named index in a folder that does not exist is a typo: the files are listed rather
    // than the folder made (the CLI refuses it with exit 2; inside pi nothing may fail).
    const named = process.env[INDEX_FILE_ENV];
    const builtIn = defaultIndexFile({ ...process.env, [INDEX_FILE_ENV]: undefined });
    if (
      named &&
      named !== ":memory:" &&
      isNamedIndexInMissingFolder(named, builtIn, process.cwd())
    ) {
      throw new Error(`the folder of $${INDEX_FILE_ENV} (${named}) does not exist`);
    }
    // Its notices (a damaged index rebuilt) are not pi's business: the answer is right anyway.
    const index = openSessionIndex({ onNotice: () => {} });
    process.once("exit", () => index.close());
    return index;
  } catch (error) {
    sayIndexFallback("the session index could not be opened", error);
    return null;
  }
}

/** The process's index for a listing: its module imported on first use. */
async function processIndex(): Promise<SessionIndex | null> {
  if (opened !== undefined) return opened;
  let loaded: IndexModule;
  try {
    loaded = await import("@pi-sessions/index");
  } catch (error) {
    sayIndexFallback("the session index could not be loaded", error);
    opened ??= null;
    return opened;
  }
  opened ??= openDefault(loaded);
  return opened;
}

/**
 * The process's index for a session's open, which asks for it inside core's synchronous load
 * (vouched-open.ts): the module is required (Node loads ES modules that way too), resolved as
 * an import (the package exports no `require` condition). A loader that cannot require it
 * gives null for this open only; a listing may still import it.
 */
export function processIndexNow(): SessionIndex | null {
  if (opened !== undefined) return opened;
  let loaded: IndexModule;
  try {
    const file = fileURLToPath(import.meta.resolve("@pi-sessions/index"));
    loaded = createRequire(import.meta.url)(file) as IndexModule;
  } catch {
    return null;
  }
  opened = openDefault(loaded);
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
  const index = await processIndex();
  if (index === null) return viaFiles();
  try {
    return await viaIndex(index);
  } catch (error) {
    if (signal?.aborted) throw error;
    sayIndexFallback("the session index failed to list", error);
    return viaFiles();
  }
}
