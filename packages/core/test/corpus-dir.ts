import { fileURLToPath } from "node:url";

/**
 * The folder of real pi session files: `$PI_SESSIONS_CORPUS`, else `shared/corpus` beside the
 * repository (where the workplace and CI put it: `<repo>/../shared/corpus`).
 */
export const CORPUS_DIR =
  process.env.PI_SESSIONS_CORPUS ??
  fileURLToPath(new URL("../../../../shared/corpus/", import.meta.url));
