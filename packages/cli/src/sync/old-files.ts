/**
 * The old files of a session: inodes a sync replaced, kept under their second name
 * (`<session>.jsonl.<inode>.replaced`, `session-file.ts`) for as long as a process may still
 * write them (SPEC §14 M4).
 *
 * Why this design: pi 1.6.0 appends with `appendFileSync` (open with O_APPEND, write, close)
 * and takes no lock, so a pi process that opened the path just before a sync's rename writes
 * its line into the old inode after it — a moment later, or much later if it is descheduled or
 * stopped. No fixed wait is long enough. Writing the merge into the existing file instead of
 * renaming avoids the old inode only when the merge just adds lines at the end (which sync
 * already does); a merge that puts the other machine's lines before this one's last line must
 * rewrite the file, and rewriting it in place would let pi's O_APPEND write land in the middle
 * of our rewrite and leave a torn file if the sync dies. Watching `/proc/<pid>/fd` alone says
 * who still writes the old inode, but not what they write after this process is gone. So:
 *
 * 1. before the rename the old inode gets a second name that outlives the sync;
 * 2. after its writes, the sync waits (up to `--wait`) until no process holds the old inode
 *    open for writing (`file-writers.ts`; nobody can open it by the session's path any more, so
 *    that set only shrinks), then appends the lines it gained to both sides ({@link catchUp})
 *    and removes the name;
 * 3. a writer still there at the end of the wait, or a sync killed before: the name stays, and
 *    the next sync of the session merges the old file into its side's copy, then does 2.
 *
 * Without `/proc` (not Linux) nobody can tell whether a writer remains: the sync waits a
 * moment, merges, and keeps the old file until a sync finds it untouched for
 * {@link UNWATCHED_KEEP_MS}.
 */

import { fstatSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { mergeSessions } from "@pi-sessions/core";
import { writersOf } from "./file-writers.js";
import {
  closeSnapshot,
  commitFile,
  type FileSnapshot,
  grownSince,
  OLD_FILE_SUFFIX,
  oldFileName,
  quietUnlink,
  readSnapshot,
} from "./session-file.js";

/** A replaced inode of a session, open: `name` is its second name (none without hard links). */
export interface OldFile {
  readonly snapshot: FileSnapshot;
  readonly name: string | undefined;
}

/** Without `/proc`: how long an old file must be untouched before a sync removes it. */
export const UNWATCHED_KEEP_MS = 10 * 60_000;

/** Without `/proc`: how long a sync waits after its rename for a writer that opened just before. */
const UNWATCHED_SETTLE_MS = 20;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The old-file names of a sync run, each folder listed once (a per-session listing would cost
 * a sync of n sessions in one folder n²). A name another sync creates after the listing waits
 * for the next run: it stays until a sync merges it.
 */
export class OldFileFolders {
  private readonly byFolder = new Map<string, readonly string[]>();

  /** The names in `dir` that end in the old-file suffix. */
  in(dir: string): readonly string[] {
    let names = this.byFolder.get(dir);
    if (names === undefined) {
      try {
        names = readdirSync(dir).filter((f) => f.endsWith(OLD_FILE_SUFFIX));
      } catch {
        names = [];
      }
      this.byFolder.set(dir, names);
    }
    return names;
  }
}

/** The inode at `path`, 0 when there is no file. */
function inodeAt(path: string): number {
  try {
    return statSync(path).ino;
  } catch {
    return 0;
  }
}

/**
 * The old files a replace of the session at `path` left (read, open), found in `folders`.
 * `write: false` (a dry run) removes nothing.
 */
export function oldFilesOf(path: string, folders: OldFileFolders, write = true): OldFile[] {
  const prefix = `${basename(path)}.`;
  const olds: OldFile[] = [];
  for (const file of folders.in(dirname(path))) {
    const ino = file.startsWith(prefix) ? file.slice(prefix.length, -OLD_FILE_SUFFIX.length) : "";
    const name = join(dirname(path), file);
    if (!/^\d+$/.test(ino) || name !== oldFileName(path, Number(ino))) continue;
    const snapshot = readSnapshot(name);
    if (snapshot.bytes === undefined) continue; // removed by another sync meanwhile
    // A sync killed between its link and its rename: the "old" file is the session file itself.
    if (snapshot.ino === inodeAt(path)) {
      closeSnapshot(snapshot);
      if (write) quietUnlink(name);
      continue;
    }
    olds.push({ snapshot, name });
  }
  return olds;
}

/** `bytes` (a side's copy, or nothing) with the lines of its old files merged in. */
export function withOldFiles(
  bytes: Buffer | undefined,
  olds: readonly OldFile[],
): Buffer | undefined {
  let out = bytes;
  for (const { snapshot } of olds) {
    const old = snapshot.bytes as Buffer;
    out = out === undefined ? old : mergeSessions(out, old).bytes;
  }
  return out;
}

/** Who writes each old file: pids (maybe none), or undefined when this system cannot tell. */
const writersOfAll = (olds: readonly OldFile[]): (number[] | undefined)[] =>
  writersOf(olds.map((old) => old.snapshot.fd as number)) ?? olds.map(() => undefined);

/**
 * After a sync's writes to `paths`: waits up to `waitMs` for the writers of `olds` to close
 * them, appends the lines they gained to every path, and removes the second name of each old
 * file nobody writes any more (closing them all). Returns a message when one is kept.
 */
export async function settleOldFiles(
  paths: readonly string[],
  olds: readonly OldFile[],
  waitMs: number,
): Promise<string | undefined> {
  if (olds.length === 0) return undefined;
  try {
    const until = Date.now() + waitMs;
    let writers = writersOfAll(olds);
    for (let pause = 2; writers.some((w) => w?.length) && Date.now() < until; ) {
      await sleep(Math.min(pause, Math.max(1, until - Date.now())));
      pause = Math.min(pause * 2, 100);
      writers = writersOfAll(olds);
    }
    if (writers.includes(undefined)) await sleep(UNWATCHED_SETTLE_MS);
    // Read after the last look at the writers: with none left, this is the old file's end.
    catchUp(
      paths,
      olds.flatMap((old) => grownSince(old.snapshot, 0) ?? []),
    );
    const held: string[] = [];
    for (const [i, old] of olds.entries()) {
      const who = writers[i];
      const untouched = () =>
        Date.now() - fstatSync(old.snapshot.fd as number).mtimeMs > UNWATCHED_KEEP_MS;
      if (who === undefined ? untouched() : who.length === 0) {
        if (old.name) quietUnlink(old.name);
      } else if (who !== undefined) {
        const kept = old.name ? `kept as ${basename(old.name)}, the next sync merges it` : "";
        held.push(
          `old file still open for writing (pid ${who.join(", ")}); ${kept || "no hard links here: what it writes later is not synced"}`,
        );
      }
    }
    return held.length > 0 ? held.join("; ") : undefined;
  } finally {
    for (const old of olds) closeSnapshot(old.snapshot);
  }
}

/**
 * Appends to each file the lines of `olds` (old contents of replaced files) that it lacks, in
 * their order, without a rename (so no further old inode): a line may then follow a child pi
 * appended meanwhile; pi and our loader build the tree by id either way, and the next sync
 * orders them.
 */
export function catchUp(paths: readonly string[], olds: readonly Buffer[]): void {
  for (const path of paths) {
    for (const old of olds) {
      const side = readSnapshot(path);
      try {
        if (side.bytes === undefined) continue;
        const missing = mergeSessions(side.bytes, old, { collisions: "keep-a" }).lines.filter(
          (l) => l.origin === "b",
        );
        if (missing.length === 0) continue;
        const tail = Buffer.concat(missing.flatMap((l) => [l.bytes, Buffer.from("\n")]));
        const lead =
          side.bytes.length > 0 && side.bytes.at(-1) !== 0x0a ? Buffer.from("\n") : Buffer.alloc(0);
        commitFile(side, Buffer.concat([side.bytes, lead, tail]));
      } finally {
        closeSnapshot(side);
      }
    }
  }
}
