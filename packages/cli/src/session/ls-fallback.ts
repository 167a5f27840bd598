/**
 * What `ls` loads only when the index's stored answers do not serve: core's listings through
 * the index or without it, the full row of an irregular file, and the ids of every header for
 * one directory's short ids. One module, imported on demand from one place each: `ls`'s own
 * bundle (`scripts/bundle.mjs`) then holds what a warm listing shares with these in one chunk
 * rather than a chunk for every set of them that shares a module (eight files became three).
 */

export { shortIdsUnder } from "./header-ids.js";
export { listedRows } from "./index-lister.js";
export { rowOfSummary } from "./ls-rows.js";
