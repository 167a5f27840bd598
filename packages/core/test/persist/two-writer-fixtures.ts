/** What the two-writer tests share: a flushed file, and the check that a refused append changed nothing. */
import { readFileSync } from "node:fs";
import { SessionConflictError, SessionLockedError, SessionManager } from "@pi-sessions/core";
import { expect } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

/** A flushed session file with two entries, its writer closed. */
export function baseFile(): string {
  const sm = SessionManager.create("/tmp/two-writers", tempDir());
  sm.appendMessage(user("q"));
  sm.appendMessage(assistant("r"));
  sm.close();
  return sm.getSessionFile() as string;
}

/** What an append that did not get in must leave alone. */
export function observeAll(sm: SessionManager, file: string) {
  return {
    entries: JSON.stringify(sm.getEntries()),
    leaf: sm.getLeafId(),
    count: sm.getEntryCount(),
    bytes: readFileSync(file).toString("base64"),
  };
}

/** Runs `append` expecting a lock or conflict error, and checks nothing changed. */
export function expectRefused(sm: SessionManager, file: string, append: () => unknown): Error {
  const before = observeAll(sm, file);
  let error: unknown;
  try {
    append();
  } catch (e) {
    error = e;
  }
  expect(
    error instanceof SessionLockedError || error instanceof SessionConflictError,
    `expected a lock or conflict error, got ${String(error)}`,
  ).toBe(true);
  expect(observeAll(sm, file), "memory and file unchanged").toEqual(before);
  return error as Error;
}
