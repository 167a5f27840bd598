/**
 * Where the real pi sessions are, and how to open one safely: opening a v1 file migrates it
 * and rewrites it in place, so the example always opens a copy in a temp directory.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionManager } from "@pi-sessions/core";

/** `$PI_SESSIONS_CORPUS`, else the repository's own copy in `fixtures/corpus/`. */
export const CORPUS_DIR =
  process.env.PI_SESSIONS_CORPUS ??
  fileURLToPath(new URL("../../../fixtures/corpus/", import.meta.url));

/** A session opened from a temporary copy; `close` deletes the copy. */
export interface OpenedCopy {
  readonly sm: SessionManager;
  readonly source: string;
  close(): void;
}

/** A corpus file name (`large-session.jsonl`) or a path, resolved to a path. */
export function resolveSession(nameOrPath: string): string {
  if (isAbsolute(nameOrPath) || nameOrPath.includes("/")) return resolve(nameOrPath);
  return join(CORPUS_DIR, nameOrPath);
}

/** Opens a copy of `source` (the original is never opened for writing). */
export function openCopy(source: string): OpenedCopy {
  const dir = mkdtempSync(join(tmpdir(), "pi-transcript-"));
  const copy = join(dir, basename(source));
  copyFileSync(source, copy);
  const sm = SessionManager.open(copy, dir);
  return {
    sm,
    source,
    close() {
      sm.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
