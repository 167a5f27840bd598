import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder, snapshot } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";

/** An index on `file` that collects its notices. */
function open(file: string) {
  const notices: string[] = [];
  const index = openSessionIndex({ file, onNotice: (m) => notices.push(m) });
  return { index, notices };
}

test("the index file deleted mid-run: listings still equal a direct read", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const { index } = open(file);
  await indexListing(index, root);
  rmSync(file);
  rmSync(`${file}-wal`, { force: true });
  appendFileSync(
    join(root, "--b--", "small.jsonl"),
    `${sessionText("x", "/", [{ user: "more" }]).split("\n")[1]}\n`,
  );
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  index.close();
  // A new process finds no index and builds one.
  const again = open(file);
  expect(await indexListing(again.index, root)).toEqual(await directListing(root));
  expect(again.index.counts.indexed).toBe(4);
  again.index.close();
  expect(snapshot(root)).toEqual({
    ...before,
    ...pick(snapshot(root), join(root, "--b--", "small.jsonl")),
  });
});

function pick<T>(record: Record<string, T>, key: string): Record<string, T> {
  return { [key]: record[key] as T };
}

test("the index file truncated mid-run: rebuilt (it is provably ours), said in one line, listings equal a direct read", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const { index, notices } = open(file);
  await index.sync(root);
  index.close(); // the WAL is folded into the file, so the damage below hits the real pages
  const reopened = open(file);
  truncateSync(file, Math.floor(statSync(file).size / 3));
  // The damage is met by a live connection (its cached pages may hide some of it) or, at the
  // latest, by the next process: either way the answers are the files'.
  expect(await indexListing(reopened.index, root)).toEqual(await directListing(root));
  reopened.index.close();
  const next = open(file);
  expect(await indexListing(next.index, root)).toEqual(await directListing(root));
  expect(next.index.verify(root).ok).toBe(true);
  next.index.close();
  const said = [...notices, ...reopened.notices, ...next.notices];
  expect(said.length).toBeGreaterThan(0);
  expect(said.every((m) => !m.includes("\n") && m.includes(file))).toBe(true);
  expect(snapshot(root)).toEqual(before);
});

test("the index file overwritten with garbage mid-run: no longer provably ours, so left as it is; listings equal a direct read", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const { index } = open(file);
  await index.sync(root);
  index.close();
  const reopened = open(file);
  const garbage = Buffer.alloc(statSync(file).size, 0x5a);
  writeFileSync(file, garbage);
  expect(await indexListing(reopened.index, root)).toEqual(await directListing(root));
  reopened.index.close();
  expect(() => open(file)).toThrow(/not a pi-sessions index \(not a SQLite file\)/);
  expect(readFileSync(file).equals(garbage)).toBe(true);
  expect(reopened.notices.length).toBeGreaterThan(0);
  expect(reopened.notices.every((m) => !m.includes("\n") && m.includes(file))).toBe(true);
  expect(snapshot(root)).toEqual(before);
});

test("a pi process appending while the index reads (torn tails): the end state equals a direct read", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const { index } = open(file);
  const session = join(root, "--b--", "small.jsonl");
  const writer = spawn(process.execPath, [
    join(import.meta.dirname, "children", "append.mjs"),
    session,
    "300",
  ]);
  const exited = new Promise<number | null>((done) => writer.on("exit", done));
  let running = true;
  void exited.then(() => {
    running = false;
  });
  let reads = 0;
  let lastCount = 0;
  while (running || reads === 0) {
    const [info] = (await index.listAll(join(root, "--b--"))).filter((i) => i.path === session);
    // Whatever moment it reads, it sees a prefix of what is being written, never less than before.
    expect(info?.messageCount ?? 0).toBeGreaterThanOrEqual(lastCount);
    lastCount = info?.messageCount ?? 0;
    reads++;
    // A listing of three small files never yields to the event loop (core's listing yields
    // only after 10 ms of work), so without this the writer's exit would not be seen until a
    // slow listing happened to yield: minutes of spinning on a fast machine.
    await new Promise((done) => setImmediate(done));
  }
  expect(await exited).toBe(0);
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  expect(index.verify(root)).toMatchObject({ ok: true, stale: 0, missing: 0 });
  index.close();
});

test("two processes indexing the same folder into one index at once", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const child = join(import.meta.dirname, "children", "sync.ts");
  const run = () =>
    new Promise<string>((done, fail) => {
      const p = spawn(
        process.execPath,
        ["--conditions=@pi-sessions/source", "--import", "tsx", child, file, root, "3"],
        {
          cwd: join(import.meta.dirname, ".."),
        },
      );
      let out = "";
      let err = "";
      p.stdout.on("data", (d) => (out += d));
      p.stderr.on("data", (d) => (err += d));
      p.on("exit", (code) =>
        code === 0 ? done(out) : fail(new Error(`child exit ${code}: ${err}`)),
      );
    });
  const outputs = await Promise.all([run(), run()]);
  const results = outputs.flatMap((o) =>
    o
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l)),
  );
  expect(results).toHaveLength(6);
  expect(results.every((r) => r.sessions === 4)).toBe(true);
  // Each file was indexed once in all: the second writer found the first one's rows.
  expect(results.reduce((n, r) => n + r.counts.indexed, 0)).toBe(4);
  const { index } = open(file);
  expect(index.verify(root)).toMatchObject({ ok: true, fresh: 4 });
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  index.close();
  expect(snapshot(root)).toEqual(before);
});

test("a session file replaced by another with the same size and mtime: the hash catches it", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const { index } = open(file);
  const session = join(root, "--b--", "small.jsonl");
  await indexListing(index, root);
  const { mtime } = statSync(session);
  const other = sessionText("33333333", "/work/b", [{ user: "HELLO there" }, { assistant: "yo" }]);
  expect(Buffer.byteLength(other)).toBe(statSync(session).size);
  writeFileSync(session, other);
  execFileSync("touch", ["-d", mtime.toISOString(), session]);
  const now = statSync(session);
  expect([now.size, now.mtimeMs]).toEqual([Buffer.byteLength(other), mtime.getTime()]);
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  expect(index.counts.indexed).toBe(5); // four at first, then the replaced file again
  index.close();
});

/**
 * A directory on a 320 KiB tmpfs (mounting needs root, which CI has); `undefined` where it
 * cannot be mounted.
 */
function tinyDisk(): { dir: string; unmount: () => void } | undefined {
  const dir = tempDir();
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=320k", "tmpfs", dir]);
  if (mounted.status !== 0) return undefined;
  return { dir, unmount: () => spawnSync("umount", [dir]) };
}

/**
 * The disk full under the index: a tiny tmpfs where it can be mounted; elsewhere (not root) an
 * index file that cannot be written, which fails the same writes with SQLITE_READONLY.
 */
test("the disk full (or the index unwritable) while it is written: said in one line, listings equal a direct read", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const disk = tinyDisk();
  const file = join(disk?.dir ?? tempDir(), "index.sqlite");
  try {
    if (disk === undefined) {
      open(file).index.close();
      chmodSync(file, 0o444);
    }
    const { index, notices } = open(file);
    // A sync stores every record and its text: more than the disk holds.
    await index.sync(root);
    expect(await indexListing(index, root)).toEqual(await directListing(root));
    expect(notices.some((m) => /full|readonly|read-only/i.test(m))).toBe(true);
    expect(notices.every((m) => !m.includes("\n"))).toBe(true);
    // The index keeps what it could write and stays usable for what fits.
    expect(await indexListing(index, root)).toEqual(await directListing(root));
    index.close();
  } finally {
    disk?.unmount();
  }
  expect(snapshot(root)).toEqual(before);
});
