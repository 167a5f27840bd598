/**
 * Temp directories that tests create under the OS temp folder and never leave behind. A test
 * that uses one touches disk, so its file carries the `.int` tag (`*.int.test.ts`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, onTestFinished } from "vitest";

const fileScoped: string[] = [];
// Directories made outside a test (at module level or in beforeAll) live until the file's
// tests are done; this module is evaluated once per test file, so the hook is that file's.
afterAll(() => {
  for (const dir of fileScoped.splice(0)) removeTempDir(dir);
});

/**
 * A fresh, empty directory. Made inside a test (or its beforeEach) it is removed when that
 * test finishes; made at module level or in beforeAll, when the file's tests are done.
 */
export function tempDir(prefix = "pi-sessions-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (expect.getState().currentTestName === undefined) fileScoped.push(dir);
  else onTestFinished(() => removeTempDir(dir));
  return dir;
}

/** Removes a directory tree (for a test that must remove one early, e.g. to see it gone). */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
