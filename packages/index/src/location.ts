/**
 * Where the index lives: never inside a sessions folder (reading must not write there), but in
 * the user's cache directory, which can be deleted at any time because the index is rebuilt
 * from the files.
 */

import { homedir } from "node:os";
import { join } from "node:path";

/** Environment variable naming the index file, overriding the cache directory. */
export const INDEX_FILE_ENV = "PI_SESSIONS_INDEX";

/** The index file's name inside the cache directory. */
export const INDEX_FILE_NAME = "index.sqlite";

/**
 * The index file: `$PI_SESSIONS_INDEX` when set and non-empty, else
 * `$XDG_CACHE_HOME/pi-sessions/index.sqlite`, else `~/.cache/pi-sessions/index.sqlite`.
 */
export function defaultIndexFile(env: NodeJS.ProcessEnv = process.env): string {
  const file = env[INDEX_FILE_ENV];
  if (file !== undefined && file !== "") return file;
  const cache = env.XDG_CACHE_HOME;
  // The XDG spec says a relative value is invalid and must be ignored.
  const base = cache?.startsWith("/") ? cache : join(homedir(), ".cache");
  return join(base, "pi-sessions", INDEX_FILE_NAME);
}
