/** A second connection to an index file, for tests that look at (or hold) it from outside. */

import { type Database, openSqlite } from "../src/sqlite.js";

/** Opens `file` with node:sqlite, as another process would (busy timeout 0 unless given). */
export function openLook(
  file: string,
  options: { readonly readonly?: boolean; readonly timeout?: number } = {},
): Database {
  return openSqlite(file, {
    readOnly: options.readonly ?? false,
    timeout: options.timeout ?? 5000,
  });
}
