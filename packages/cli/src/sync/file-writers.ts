/**
 * Which processes hold a file open for writing, found through Linux's `/proc/<pid>/fd`. A sync
 * asks this about a session file's old inode after it renamed the merged file over it: a pi
 * 1.6.0 process that opened the path just before the rename (`appendFileSync`: open with
 * O_APPEND, write, close; no lock) still writes there, however late it is scheduled, and
 * nobody can open that inode by the session's path any more — so the set of its writers only
 * shrinks, and once it is empty the old file's content is final.
 *
 * The scan compares device and inode (`stat` follows the `/proc` link to the open file; the
 * link's text would still name the session path, marked deleted, though the inode lives on
 * under its second name) and counts a descriptor only when its flags (`/proc/<pid>/fdinfo`)
 * open it for writing: a reader (`tail -f`, our own snapshot) never makes a sync wait.
 * Processes whose descriptors we may not list belong to other users, who cannot write a
 * session file (pi creates them 0600) — they are passed over.
 */

import { fstatSync, readdirSync, readFileSync, statSync } from "node:fs";

/** O_ACCMODE bits of an open file's flags: 0 read-only, 1 write-only, 2 read-write. */
const ACCESS_MODE = 0o3;

/** Whether descriptor `fd` of `pid` is open for writing (its `fdinfo` flags, octal). */
function openForWriting(pid: string, fd: string): boolean {
  try {
    const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8");
    const flags = /^flags:\s*([0-7]+)/m.exec(info)?.[1];
    // Flags unreadable: counted as a writer (waiting too long loses nothing, too short could).
    return flags === undefined || (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0;
  } catch {
    return false; // closed meanwhile
  }
}

/**
 * For each open file in `fds`, the ids of processes (this one included) that hold it open for
 * writing, from one pass over `/proc`; `undefined` when this system has no `/proc` to ask
 * (then nobody can tell).
 */
export function writersOf(fds: readonly number[]): number[][] | undefined {
  const files = fds.map((fd) => fstatSync(fd));
  let pids: string[];
  try {
    readdirSync("/proc/self/fd");
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const writers = files.map((): number[] => []);
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // exited, or another user's
    }
    for (const n of fds) {
      let at: number;
      try {
        const target = statSync(`/proc/${pid}/fd/${n}`, { throwIfNoEntry: false });
        if (target === undefined) continue;
        at = files.findIndex((f) => f.ino === target.ino && f.dev === target.dev);
      } catch {
        continue; // closed meanwhile
      }
      const found = writers[at];
      if (found && !found.includes(Number(pid)) && openForWriting(pid, n)) found.push(Number(pid));
    }
  }
  return writers;
}
