/**
 * What an untidy machine puts in a sessions folder, made for real: FIFOs, listening sockets,
 * devices and symlinks named `*.jsonl`, and the means to be another user (as root, permission
 * bits do not stop reads; a child process run as `nobody` is stopped by them).
 *
 * {@link watchFifos} turns "a reader hangs on a FIFO" into a plain failure rather than a test
 * that never ends: a watcher process keeps trying to open each FIFO for writing without
 * blocking, which succeeds only while some process has it open for reading; it then closes it
 * at once (the blocked reader sees end of file and goes on) and records the path. A reader that
 * never opens a FIFO leaves the record empty.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";

/** Makes a FIFO (named pipe) at `path` with `mkfifo`. */
export function makeFifo(path: string): string {
  execFileSync("mkfifo", [path]);
  return path;
}

/** Listens on a Unix socket at `path`; resolves the server (close it when done). */
export function makeSocket(path: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((connection) => connection.end());
    server.once("error", reject);
    server.listen(path, () => resolve(server));
  });
}

/** Whether this process runs as root (permission bits do not stop its reads). */
export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * A character device at `path`: as root a real node (`mknod`, the numbers of `/dev/zero`, which
 * reads zeros forever); otherwise, or where `mknod` is refused, a symlink to `/dev/zero`.
 * Resolves which of the two it made.
 */
export function makeDevice(path: string): "device" | "symlink" {
  if (isRoot()) {
    try {
      execFileSync("mknod", [path, "c", "1", "5"], { stdio: "ignore" });
      return "device";
    } catch {
      // No CAP_MKNOD here (a container): the symlink below is a device to `stat` all the same.
    }
  }
  symlinkSync("/dev/zero", path);
  return "symlink";
}

/**
 * Options for `spawn` that run a child as an unprivileged user: `nobody` (65534) when this
 * process is root, nothing to add otherwise (an ordinary user is already stopped by modes).
 */
export function unprivileged(): { uid?: number; gid?: number } {
  return isRoot() ? { uid: 65534, gid: 65534 } : {};
}

/** What {@link watchFifos} gives: `stop` ends the watcher and resolves the FIFOs it saw opened. */
export interface FifoWatch {
  stop(): Promise<string[]>;
}

const WATCHER = `
const fs = require("node:fs");
const paths = process.argv.slice(1);
const seen = new Set();
setInterval(() => {
  for (const p of paths) {
    let fd;
    try { fd = fs.openSync(p, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK); } catch { continue; }
    fs.closeSync(fd);
    if (!seen.has(p)) { seen.add(p); process.stdout.write(p + "\\n"); }
  }
}, 20);
process.stdout.write("ready\\n");
`;

/**
 * Watches `fifos` for readers (see the module comment); resolves once the watcher runs.
 * A FIFO opened by anyone while watched is in the list `stop` resolves.
 */
export function watchFifos(fifos: readonly string[]): Promise<FifoWatch> {
  const child: ChildProcess = spawn(process.execPath, ["-e", WATCHER, ...fifos], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      const wasReady = out.startsWith("ready\n");
      out += chunk;
      if (!wasReady && out.startsWith("ready\n")) resolve({ stop });
    });
  });
  function stop(): Promise<string[]> {
    return new Promise((resolve) => {
      child.once("close", () =>
        resolve(
          out
            .split("\n")
            .slice(1)
            .filter((l) => l !== ""),
        ),
      );
      child.kill("SIGTERM");
    });
  }
}
