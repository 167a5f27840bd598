/**
 * Shared pieces of the demo generator: the demo's working directories, names and corpus files,
 * and the one way every generated session is opened, written, named and closed.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import { encodeCwd } from "@pi-sessions/core/internal";
import { MessageClock } from "./demo-conversation.js";

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
function envFor(seed: number, start: string) {
  return createDeterministicEnv({ seed, startMs: Date.parse(start), stepMs: 1500 });
}

/** The seeded env a demo session is opened with. */
export type DemoEnv = ReturnType<typeof envFor>;

/** How one demo session starts and what it is called. */
export interface DemoSpec {
  /** Seed of its ids. */
  readonly seed: number;
  /** When its entry clock and its message clock start (ISO time). */
  readonly start: string;
  /** Its session name, appended last. */
  readonly name: string;
  /** Opens its manager (new or forked) with the seeded env. */
  open(env: DemoEnv): SessionManager;
}

/** Opens a new session of `cwd` under the sessions root `root`. */
export function createIn(root: string, cwd: string): DemoSpec["open"] {
  return (env) => SessionManager.create(cwd, projectDir(root, cwd), { env });
}

/**
 * Writes one demo session: opens it, lets `write` append with a message clock, names it and
 * closes it (the CLI that reads it runs in other processes). Returns its file.
 */
export function writeDemo(
  spec: DemoSpec,
  write: (sm: SessionManager, clock: MessageClock) => void,
): string {
  const sm = spec.open(envFor(spec.seed, spec.start));
  write(sm, new MessageClock(spec.start));
  sm.appendSessionInfo(spec.name);
  const file = sm.getSessionFile();
  if (file === undefined) throw new Error(`demo session "${spec.name}" was not written`);
  sm.close();
  return file;
}

/** The project directory of a cwd under a sessions root, created. */
export function projectDir(root: string, cwd: string): string {
  const dir = join(root, encodeCwd(cwd));
  mkdirSync(dir, { recursive: true });
  return dir;
}
