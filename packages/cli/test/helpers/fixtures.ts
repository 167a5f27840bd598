/**
 * Test fixtures: temp directories laid out as a sessions root (SPEC §1), copies of the real
 * corpus files, and snapshots of a directory's bytes to prove read paths write nothing.
 */

import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { encodeCwd, readHeader } from "@pi-sessions/core/internal";

import { CORPUS_DIR } from "@pi-sessions/test-utils";

/** The corpus files and what the tests rely on about each. */
export const CORPUS = {
  /** v3, written by the reference: two branches, labels, compaction, branch summary, name. */
  branched: "ref-1.6-branched.jsonl",
  /** v1 (no ids): ~1,000 entries. */
  large: "large-session.jsonl",
  /** v1 with compactions and `firstKeptEntryIndex`. */
  beforeCompaction: "before-compaction.jsonl",
} as const;

/** The project directory of `cwd` under `root`, created. */
export function projectDir(root: string, cwd: string): string {
  const dir = join(root, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Copies corpus files into `root` the way pi stores them: under the project directory of
 * their header cwd, writable. Returns the copies' paths by corpus name.
 */
export function copyCorpus(root: string, names: readonly string[] = Object.values(CORPUS)) {
  const out: Record<string, string> = {};
  for (const name of names) {
    const source = join(CORPUS_DIR, name);
    const cwd = String(readHeader(source)?.cwd);
    const target = join(projectDir(root, cwd), name);
    copyFileSync(source, target);
    chmodSync(target, 0o600);
    out[name] = target;
  }
  return out;
}

/** Writes `text` as a session file in the project directory of `cwd`; returns its path. */
export function writeSession(root: string, cwd: string, name: string, text: string | Buffer) {
  const path = join(projectDir(root, cwd), name);
  writeFileSync(path, text);
  return path;
}

/** Every file under `dir` (recursively) with its bytes: compare two to prove nothing changed. */
export function snapshot(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(path, readFileSync(path));
    }
  };
  walk(dir);
  return out;
}
