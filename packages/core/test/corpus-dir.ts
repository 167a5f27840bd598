import { fileURLToPath } from "node:url";

/**
 * The folder of real pi session files: `$PI_SESSIONS_CORPUS`, else the repository's own copy
 * in `fixtures/corpus/` (a plain clone needs nothing beside it).
 */
export const CORPUS_DIR =
  process.env.PI_SESSIONS_CORPUS ??
  fileURLToPath(new URL("../../../fixtures/corpus/", import.meta.url));
