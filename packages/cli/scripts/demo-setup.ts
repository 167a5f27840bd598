/**
 * Shared pieces of the demo generator: the demo's working directories, names and corpus files,
 * and the seeded env and project-directory helpers every generated session uses.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv } from "@pi-sessions/core";
import { encodeCwd } from "@pi-sessions/core/internal";

/** The working directories of the generated sessions. */
export const DEMO_CWDS = {
  webshop: "/home/dev/webshop",
  cliTool: "/home/dev/cli-tool",
} as const;

/** The home directory of the demo user (the cwds above lie in it). */
export const DEMO_HOME = "/home/dev";

/** Names of the generated sessions (what `tree <name>` accepts). */
export const DEMO_NAMES = {
  flaky: "Fix flaky upload test",
  fork: "Upload API follow-up",
  rename: "Rename config keys",
  damaged: "Damaged example",
} as const;

/** The corpus files bundled with the demo. */
export const CORPUS_FILES = [
  "large-session.jsonl",
  "before-compaction.jsonl",
  "ref-1.6-branched.jsonl",
] as const;

/** A seeded env whose clock starts at `start` and advances 1.5 s per reading. */
export function envFor(seed: number, start: string) {
  return createDeterministicEnv({ seed, startMs: Date.parse(start), stepMs: 1500 });
}

/** The project directory of a cwd under a sessions root, created. */
export function projectDir(root: string, cwd: string): string {
  const dir = join(root, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  return dir;
}
