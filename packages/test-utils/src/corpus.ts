/**
 * Where the real pi session files are: the repository's own copy in `fixtures/corpus/`, so a
 * plain clone needs nothing beside it, or the folder `PI_SESSIONS_CORPUS` names.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The corpus folder. */
export const CORPUS_DIR =
  process.env.PI_SESSIONS_CORPUS ??
  fileURLToPath(new URL("../../../fixtures/corpus/", import.meta.url));

/** The path of one corpus file. */
export function corpusFile(name: string): string {
  return join(CORPUS_DIR, name);
}
