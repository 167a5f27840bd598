/**
 * Giant sessions open from the session index inside pi (issue: ready for a prompt at once): the
 * `columnsFor` core's file store asks when it opens a big file. The index answers only for a
 * file its own rule says its rows describe as it is now (or that only grew since; the new lines
 * are indexed first) and that a load would report nothing about; core then takes the entries'
 * layout from it and reads only the header and the records its load decodes (core's
 * vouched-columns.ts). Whenever the index cannot answer — none yet, the addon missing, a file
 * changed otherwise, damaged lines — core reads and checks the whole file as it would without
 * the index: the same session either way, only the time differs.
 */

import type { Stats } from "node:fs";
import type { ColumnsFor, VouchedLayout } from "@pi-sessions/core";
import { processIndexNow } from "./index-listing.js";

/** The environment variable that turns the index's part in opening sessions off (`0`). */
export const OPEN_FROM_INDEX_ENV = "PI_SESSIONS_OPEN_FROM_INDEX";

/** The layout the process's index vouches for, or undefined (see the module comment). */
export const columnsFromIndex: ColumnsFor = (
  path: string,
  stats: Stats,
): VouchedLayout | undefined => {
  if (process.env[OPEN_FROM_INDEX_ENV] === "0") return undefined;
  return processIndexNow()?.columnsFor(path, stats);
};
