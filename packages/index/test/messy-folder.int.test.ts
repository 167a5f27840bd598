/**
 * The index on an untidy machine (issue 32): a FIFO, a socket and a device named `*.jsonl` in
 * the sessions folder are never opened (opening a FIFO for reading waits for a writer forever);
 * an index file that is not provably ours is never deleted or written; a folder that cannot be
 * read is not taken for empty (its rows are kept, and the sync says it could not read it).
 */

import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { dirname, join } from "node:path";
import { listAllSessions } from "@pi-sessions/core/internal";
import { tempDir } from "@pi-sessions/test-utils";
import { afterEach, expect, test } from "vitest";
import { IndexUnavailableError, openSessionIndex } from "../src/index.js";
import { sessionsFolder } from "./fault-helpers.js";
import { openLook } from "./sqlite-look.js";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A FIFO, a listening socket and (as root) a character device, each named `*.jsonl`. */
async function specialFiles(dir: string): Promise<string[]> {
  const fifo = join(dir, "fifo.jsonl");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  const socket = join(dir, "socket.jsonl");
  const server = createServer();
  servers.push(server);
  await new Promise<void>((done) => server.listen(socket, done));
  const made = [fifo, socket];
  if (process.getuid?.() === 0) {
    const device = join(dir, "device.jsonl");
    // The same device as /dev/null (char 1:3): only root may make one.
    expect(spawnSync("mknod", [device, "c", "1", "3"]).status).toBe(0);
    made.push(device);
  }
  return made;
}

test("a FIFO, a socket and a device named *.jsonl: listings, sync, search, verify and session() never open them", async () => {
  const root = sessionsFolder();
  const specials = [
    ...(await specialFiles(join(root, "--a--"))),
    ...(await specialFiles(root)), // files lying in the root itself are synced too
  ];
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite") });
  const listed = await index.listProjects(root, { withText: true });
  const flat = await index.listInDir(root);
  expect(flat).toEqual([]);
  expect(await index.sync(root)).toMatchObject({ sessions: 4, unreadable: [] });
  expect((await index.search("hello", { dir: root })).length).toBeGreaterThan(0);
  expect(index.verify(root)).toMatchObject({ ok: true, files: 4 + specials.length });
  for (const special of specials) expect(index.session(special)).toBeNull();
  index.close();
  // Core's direct listing opens what it lists: compare once the special files are gone.
  for (const special of specials) rmSync(special);
  expect(listed).toEqual(await listAllSessions(root, { cache: null }));
});

test("an index path naming what is not an index of ours: refused with one line, never changed", () => {
  const dir = tempDir();
  const session = join(dir, "session.jsonl");
  writeFileSync(session, `${JSON.stringify({ type: "session", version: 3, id: "x" })}\n`);
  const notes = join(dir, "notes.txt");
  writeFileSync(notes, "my notes\n".repeat(100));
  const other = join(dir, "other.sqlite");
  const db = openLook(other);
  db.exec("CREATE TABLE mine (a); INSERT INTO mine VALUES (1)");
  db.close();
  const fifo = join(dir, "fifo.sqlite");
  expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
  for (const [file, reason] of [
    [session, "not a SQLite file"],
    [notes, "not a SQLite file"],
    [other, "a SQLite database with other tables"],
    [fifo, "not a regular file"],
  ] as const) {
    const before = file === fifo ? undefined : readFileSync(file);
    let error: unknown;
    try {
      openSessionIndex({ file }).close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(IndexUnavailableError);
    expect((error as Error).message).toBe(
      `${file} is not a pi-sessions index (${reason}); it is left as it is`,
    );
    if (before !== undefined) expect(readFileSync(file).equals(before)).toBe(true);
  }
  // An empty file holds nothing to lose: it becomes the index.
  const empty = join(dir, "empty.sqlite");
  writeFileSync(empty, "");
  openSessionIndex({ file: empty }).close();
  expect(readFileSync(empty).subarray(0, 15).toString()).toBe("SQLite format 3");
});

/**
 * Runs `test/children/sync.ts` once on `root` into `file` as a user the folder's modes apply
 * to (root reads any folder: as root, the child runs as `nobody`); returns its sync result.
 */
function syncAsUser(file: string, root: string) {
  const child = join(import.meta.dirname, "children", "sync.ts");
  const asRoot = process.getuid?.() === 0;
  const run = spawnSync(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--import", "tsx", child, file, root, "1"],
    {
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as {
    sessions: number;
    counts: Record<string, number>;
    unreadable: string[];
  };
}

test("a project folder or the whole root that cannot be read: its rows are kept and the sync names it", () => {
  const root = sessionsFolder();
  // Readable by anyone (the child may run as another user), the index writable by anyone.
  spawnSync("chmod", ["-R", "a+rwX", root]);
  chmodSync(dirname(root), 0o755);
  const dir = tempDir();
  chmodSync(dir, 0o777);
  const file = join(dir, "index.sqlite");
  expect(syncAsUser(file, root)).toMatchObject({ sessions: 4, unreadable: [] });
  chmodSync(file, 0o666);
  const rows = () => {
    const db = openLook(file, { readonly: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM files").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  expect(rows()).toBe(4);
  const b = join(root, "--b--");
  chmodSync(b, 0o000);
  try {
    const result = syncAsUser(file, root);
    expect(result.counts.gone).toBe(0);
    expect(result.unreadable).toEqual([b]);
    expect(rows()).toBe(4);
    chmodSync(root, 0o000);
    const whole = syncAsUser(file, root);
    expect(whole.counts.gone).toBe(0);
    expect(whole.unreadable).toEqual([join(root, "--a--"), b]);
    expect(rows()).toBe(4);
  } finally {
    chmodSync(root, 0o755);
    chmodSync(b, 0o755);
  }
  // Readable again: a file deleted meanwhile is dropped, as always.
  rmSync(join(b, "small.jsonl"));
  expect(syncAsUser(file, root)).toMatchObject({ sessions: 3, unreadable: [] });
  expect(rows()).toBe(3);
});
