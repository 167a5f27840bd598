/**
 * A sync that replaces a session file while a pi process is between opening it and writing to
 * it (SPEC §14 M4). pi 1.6.0 appends with `appendFileSync` (open with O_APPEND, write, close)
 * and takes no lock, so a process that opened the path just before the rename writes into the
 * old file — however late: a descheduled or stopped process writes after any fixed window. The
 * tests hold such a descriptor (O_APPEND, as pi opens it) across the sync and write through it
 * after the rename: the line must end up in both roots, whether the writer closes within the
 * sync's wait, after it (the next sync merges it), or after the sync was killed; a writer in
 * another process stopped (SIGSTOP) between its open and its write is waited for; a reader is
 * not.
 */

import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { noProgress, syncFolders } from "../src/index.js";
import { runBin } from "./helpers/run-bin.js";
import { entryIds, writeSession } from "./helpers/sync-roots.js";

const HEADER = {
  type: "session",
  version: 3,
  id: "019cadc6-9a80-7b0b-ae33-47ffbfd3f0aa",
  timestamp: "2026-03-02T09:00:00.000Z",
  cwd: "/w",
};
const REL = "--w--/2026-03-02T09-00-00-000Z_019cadc6-9a80-7b0b-ae33-47ffbfd3f0aa.jsonl";
const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 9, 0, s)).toISOString();
const msg = (id: string, parentId: string | null, s: number) =>
  `${JSON.stringify({ type: "message", id, parentId, timestamp: at(s), message: { role: "user", content: id, timestamp: Date.parse(at(s)) } })}\n`;

/**
 * Two roots whose copies diverged so that A's file is replaced: B's new entry is older than
 * A's, so the merged file puts it before A's last line.
 */
function rootsToReplace() {
  const [rootA, rootB] = [tempDir(), tempDir()];
  const common = `${JSON.stringify(HEADER)}\n${msg("00000001", null, 1)}`;
  const pathA = writeSession(rootA, REL, `${common}${msg("aaaaaaa1", "00000001", 20)}`);
  const pathB = writeSession(rootB, REL, `${common}${msg("bbbbbbb1", "00000001", 10)}`);
  return { rootA, rootB, pathA, pathB };
}

/** The line a pi process appends: a child of A's last entry. */
const LATE = msg("1a7e1a7e", "aaaaaaa1", 30);

/** Files under a root's session folder other than the session itself. */
const others = (path: string) => readdirSync(dirname(path)).filter((f) => !f.endsWith(".jsonl"));

const sync = (rootA: string, rootB: string, lockWaitMs = 5000) =>
  syncFolders(rootA, rootB, { dryRun: false, lockWaitMs }, noProgress);

describe("a replace under a pi process that opened the file just before it", () => {
  it("keeps a line written through the old file after the rename, however late", async () => {
    const { rootA, rootB, pathA, pathB } = rootsToReplace();
    const fd = openSync(pathA, "a"); // pi's appendFileSync: opened, not yet written
    // Written and closed 300 ms after the sync started: long after the rename.
    const late = new Promise<void>((done) =>
      setTimeout(() => {
        writeSync(fd, LATE);
        closeSync(fd);
        done();
      }, 300),
    );
    const [r] = await sync(rootA, rootB);
    await late;
    expect(r).toMatchObject({ status: "synced", a: "replaced", b: "appended" });
    for (const path of [pathA, pathB]) {
      expect(entryIds(readFileSync(path))).toContain("1a7e1a7e");
      expect(others(path)).toEqual([]);
    }
    expect(readFileSync(pathA).equals(readFileSync(pathB))).toBe(true);
  });

  it("a writer that outlasts the wait: its old file is kept, and the next sync merges it", async () => {
    const { rootA, rootB, pathA, pathB } = rootsToReplace();
    const fd = openSync(pathA, "a");
    const [first] = await sync(rootA, rootB, 100);
    expect(first).toMatchObject({ status: "synced", a: "replaced" });
    expect(first?.message).toMatch(`still open for writing (pid ${process.pid})`);
    expect(others(pathA)).toHaveLength(1); // the old file's second name
    writeSync(fd, LATE);
    closeSync(fd);
    const [second] = await sync(rootA, rootB);
    expect(second).toMatchObject({ status: "synced" });
    for (const path of [pathA, pathB]) {
      expect(entryIds(readFileSync(path))).toContain("1a7e1a7e");
      expect(others(path)).toEqual([]);
    }
  });

  it("the command says which process still writes the old file; the next run merges it", async () => {
    const { rootA, rootB, pathA, pathB } = rootsToReplace();
    const fd = openSync(pathA, "a");
    const first = await runBin(["sync", rootA, rootB, "--wait", "0.2"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `old file still open for writing (pid ${process.pid}); kept as `,
    );
    writeSync(fd, LATE);
    closeSync(fd);
    const second = await runBin(["sync", rootA, rootB]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("synced");
    expect(second.stdout).not.toContain("still open");
    for (const path of [pathA, pathB]) {
      expect(entryIds(readFileSync(path))).toContain("1a7e1a7e");
      expect(others(path)).toEqual([]);
    }
  });

  it("a sync killed while it waits for the writer: the next sync merges the old file", async () => {
    const { rootA, rootB, pathA, pathB } = rootsToReplace();
    const fd = openSync(pathA, "a");
    const helper = fileURLToPath(new URL("./helpers/sync-child.ts", import.meta.url));
    const tsx = ["--conditions=@pi-sessions/source", "--import", import.meta.resolve("tsx")];
    const child = spawn(process.execPath, [...tsx, helper, rootA, rootB], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const ended = new Promise((done) => child.on("close", done));
    child.stdout.once("data", () => child.stdin.write("go\n")); // "ready"
    // The sync renamed the merged file over A's and waits for this process to close `fd`.
    const until = Date.now() + 20_000;
    while (!others(pathA).some((f) => f.endsWith(".replaced")) && Date.now() < until) {
      await new Promise((next) => setTimeout(next, 5));
    }
    expect(others(pathA).filter((f) => f.endsWith(".replaced"))).toHaveLength(1);
    await new Promise((next) => setTimeout(next, 50));
    child.kill("SIGKILL");
    await ended;
    writeSync(fd, LATE);
    closeSync(fd);
    const [r] = await sync(rootA, rootB);
    expect(r?.status).toBe("synced");
    for (const path of [pathA, pathB]) {
      expect(entryIds(readFileSync(path))).toEqual([
        "00000001",
        "bbbbbbb1",
        "aaaaaaa1",
        "1a7e1a7e",
      ]);
      expect(others(path).filter((f) => !f.endsWith(".lock"))).toEqual([]);
    }
    expect(join(rootA, REL)).toBe(pathA);
  });

  it("a writer in another process, stopped between its open and its write: the sync waits for it", async () => {
    const { rootA, rootB, pathA, pathB } = rootsToReplace();
    // A process that opens the path as appendFileSync does, then writes one line when told.
    const script = `const fs = require("node:fs");
      const fd = fs.openSync(process.argv[1], "a");
      process.stdout.write("open\\n");
      process.stdin.once("data", () => { fs.writeSync(fd, process.argv[2]); fs.closeSync(fd); process.exit(0); });`;
    const writer = spawn(process.execPath, ["-e", script, pathA, LATE], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const ended = new Promise((done) => writer.on("close", done));
    await new Promise((open) => writer.stdout.once("data", open));
    writer.kill("SIGSTOP"); // descheduled: it writes whenever it runs again
    const syncing = sync(rootA, rootB);
    const until = Date.now() + 20_000;
    while (!others(pathA).some((f) => f.endsWith(".replaced")) && Date.now() < until) {
      await new Promise((next) => setTimeout(next, 5));
    }
    expect(others(pathA).filter((f) => f.endsWith(".replaced"))).toHaveLength(1);
    await new Promise((next) => setTimeout(next, 200)); // well past any fixed catch-up
    writer.kill("SIGCONT");
    writer.stdin.write("go\n");
    await ended;
    const [r] = await syncing;
    expect(r).toMatchObject({ status: "synced", a: "replaced", b: "appended" });
    expect(r?.message).toBeUndefined();
    for (const path of [pathA, pathB]) {
      expect(entryIds(readFileSync(path))).toContain("1a7e1a7e");
      expect(others(path)).toEqual([]);
    }
  });

  it("a reader of the old file is no writer: the sync neither waits for it nor keeps the file", async () => {
    const { rootA, rootB, pathA } = rootsToReplace();
    const fd = openSync(pathA, "r"); // `tail -f`, an editor, another sync's read
    try {
      const [r] = await sync(rootA, rootB, 60_000);
      expect(r).toMatchObject({ status: "synced", a: "replaced" });
      expect(r?.message).toBeUndefined();
      expect(others(pathA)).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });
});
