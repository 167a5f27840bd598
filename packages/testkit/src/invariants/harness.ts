/**
 * Harnesses: how the round-trip, migration and damage checkers (I5, I7, I10) load text into a
 * session of the implementation under test, and read back the file it writes. One in memory
 * (from JSONL text) and one through real files (`SessionManager.open` on a temp file); both
 * work with any module shaped like the reference's session module.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AppendableSession } from "./types.js";

/** A way to turn session text into a live session of the implementation under test. */
export interface SessionHarness<S extends AppendableSession = AppendableSession> {
  /** Shown in violation messages. */
  readonly name: string;
  /** Loads JSONL text as a session. May throw for text that is not a session. */
  load(text: string): S;
  /**
   * Writes `text` to a session file, opens it, runs `act` on the session, and returns the
   * file's text afterwards with the session. Absent for in-memory harnesses: the checks that
   * need a written file (I5 on disk, I7 rewrite, I10 append) then report that they cannot run.
   */
  withFile?(text: string, act?: (session: S) => void): { text: string; session: S };
}

/** The static side of a SessionManager that {@link createMemoryHarness} uses. */
export interface InMemoryFactory<S extends AppendableSession = AppendableSession> {
  /** Ours: a session from JSONL text (line numbers in its diagnostics). */
  fromJsonl?(text: string): S;
  /** The reference's factory: a session from records (a header among them is adopted). */
  inMemory(cwd?: string, options?: undefined, entries?: unknown[]): S;
}

/** A module with the reference session module's names (ours and the npm package qualify). */
export interface HarnessModule<S extends AppendableSession = AppendableSession> {
  readonly SessionManager: InMemoryFactory<S>;
  parseSessionEntries?(text: string): unknown[];
}

/**
 * An in-memory harness: `SessionManager.fromJsonl(text)` when the module has it, else
 * `SessionManager.inMemory(cwd, undefined, parseSessionEntries(text))` (the reference way,
 * which drops malformed lines silently). It has no `withFile`.
 */
export function createMemoryHarness<S extends AppendableSession>(
  module: HarnessModule<S>,
  name = "in-memory",
): SessionHarness<S> {
  const factory = module.SessionManager;
  return {
    name,
    load(text) {
      if (factory.fromJsonl) return factory.fromJsonl(text);
      const parse = module.parseSessionEntries;
      if (!parse)
        throw new Error(`${name}: the module has neither fromJsonl nor parseSessionEntries`);
      return factory.inMemory(process.cwd(), undefined, parse(text));
    },
  };
}

/** The static side of a SessionManager that {@link createFileHarness} uses. */
export interface FileFactory<S extends AppendableSession = AppendableSession> {
  open(path: string): S;
}

/** Options of {@link createFileHarness}. */
export interface FileHarnessOptions {
  /** Shown in violation messages (default `"file"`). */
  name?: string;
  /** Parent directory of the temp directory (default: the OS temp directory). */
  dir?: string;
}

/** A file harness; `dispose()` closes the sessions it opened and deletes its temp directory. */
export interface FileHarness<S extends AppendableSession> extends SessionHarness<S> {
  withFile(text: string, act?: (session: S) => void): { text: string; session: S };
  dispose(): void;
}

/** Releases a session's file handle and lock when the implementation has `close()` (ours). */
function closeSession(session: unknown): void {
  (session as { close?: () => void }).close?.();
}

/**
 * A harness over real files: every `load`/`withFile` writes the text to a new file in a temp
 * directory and opens it with `SessionManager.open(path)`, so the implementation's own load,
 * migration rewrite and append paths run. Call `dispose()` when done.
 */
export function createFileHarness<S extends AppendableSession>(
  factory: FileFactory<S>,
  options: FileHarnessOptions = {},
): FileHarness<S> {
  let dir: string | undefined;
  let count = 0;
  const opened: S[] = [];
  const nextPath = (): string => {
    dir ??= mkdtempSync(join(options.dir ?? tmpdir(), "pi-testkit-"));
    count += 1;
    return join(dir, `session-${count}.jsonl`);
  };
  const openText = (text: string): { path: string; session: S } => {
    const path = nextPath();
    writeFileSync(path, text);
    const session = factory.open(path);
    opened.push(session);
    return { path, session };
  };
  return {
    name: options.name ?? "file",
    load: (text) => openText(text).session,
    withFile(text, act) {
      const { path, session } = openText(text);
      try {
        act?.(session);
      } finally {
        closeSession(session);
      }
      return { text: readFileSync(path, "utf8"), session };
    },
    dispose() {
      for (const s of opened.splice(0)) closeSession(s);
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}
