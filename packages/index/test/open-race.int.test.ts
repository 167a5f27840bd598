/**
 * Opening an index file that another process is writing while it is still new (not yet in
 * WAL mode), as when two `pi-sessions` processes start on a new index at the same moment.
 * Turning a file to WAL needs it alone, and SQLite answers busy at once there rather than
 * through the busy timeout (waiting could deadlock inside SQLite), so one of the two failed
 * to open the index and read the files directly.
 */

import { spawn } from "node:child_process";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { scalar } from "../src/sqlite.js";
import { openLook } from "./sqlite-look.js";

/**
 * A process that holds a write transaction on `file` (a new rollback-journal database) for
 * `ms`; resolves once it holds it, with a promise of its exit.
 */
function holdWrite(file: string, ms: number): Promise<{ exited: Promise<number | null> }> {
  const script = `const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
const db = new DatabaseSync(${JSON.stringify(file)});
db.exec("BEGIN IMMEDIATE");
db.exec("CREATE TABLE files (a)");
process.stdout.write("held\\n");
setTimeout(() => { db.exec("COMMIT"); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
  const exited = new Promise<number | null>((done) => child.on("exit", done));
  return new Promise((held, fail) => {
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes("held")) held({ exited });
    });
    child.on("error", fail);
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    void exited.then((code) => fail(new Error(`the writer exited (${code}) first: ${err}`)));
  });
}

test("an index file another process is writing while it is new opens once that write ends", async () => {
  const file = join(tempDir(), "index.sqlite");
  // A database file in the default (rollback) mode, as a first open leaves it for a moment.
  openLook(file).close();
  const { exited } = await holdWrite(file, 2000);
  // The write is still held as the index opens (else this would test nothing): a writer that
  // does not wait is turned away.
  const probe = openLook(file, { timeout: 0 });
  expect(() => probe.exec("BEGIN IMMEDIATE")).toThrow(/locked|busy/i);
  probe.close();
  const notices: string[] = [];
  const index = openSessionIndex({
    file,
    busyTimeoutMs: 10_000,
    onNotice: (n) => notices.push(n),
  });
  try {
    const db = openLook(file, { readonly: true });
    expect(scalar(db, "PRAGMA journal_mode")).toBe("wal");
    db.close();
    expect(index.verify(tempDir())).toMatchObject({ ok: true, files: 0 });
    expect(notices).toEqual([]);
  } finally {
    index.close();
  }
  expect(await exited).toBe(0);
});
