import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { nodeStoreFs, type StoreFs } from "../../src/store/store-fs.js";

// The store suites import tempDir from here with their other helpers.
export { tempDir } from "@pi-sessions/test-utils";

/** Permission bits of a path. */
export function modeOf(path: string): number {
  return fs.statSync(path).mode & 0o777;
}

/** A Node system error with a code, as `fs` throws them. */
export function sysError(code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected`);
  error.code = code;
  return error;
}

/** Switches for {@link faultFs}; each applies to every later call until changed. */
export interface Faults {
  /** Bytes `writeSync` may still write; when it reaches 0 the next write throws ENOSPC. */
  writeBudget?: number;
  /** Make `ftruncateSync` throw EIO. */
  failTruncate?: boolean;
  /** Make `fsyncSync` throw EIO. */
  failFsync?: boolean;
  /** Make `renameSync` throw EIO. */
  failRename?: boolean;
  /** Make `linkSync` throw this code. */
  linkError?: string;
  /** Limit `writeBudget` to fds opened on paths with this suffix (e.g. the session, not its lock). */
  writeSuffix?: string;
}

/** A {@link StoreFs} over the real file system that counts calls and injects failures. */
export interface FaultFs extends StoreFs {
  /** Calls per method name. */
  readonly calls: Record<string, number>;
  /** The failure switches (mutable). */
  readonly faults: Faults;
}

/** Builds a {@link FaultFs}. */
export function faultFs(): FaultFs {
  const calls: Record<string, number> = {};
  const faults: Faults = {};
  const count = (name: string): void => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const openPaths = new Map<number, string>();
  return {
    calls,
    faults,
    ...nodeStoreFs,
    openSync(path, flags, mode) {
      const fd = nodeStoreFs.openSync(path, flags, mode);
      openPaths.set(fd, path);
      return fd;
    },
    writeSync(fd, buffer, offset, length) {
      count("writeSync");
      const budget = faults.writeBudget;
      const targeted = !faults.writeSuffix || openPaths.get(fd)?.endsWith(faults.writeSuffix);
      if (budget === undefined || !targeted)
        return nodeStoreFs.writeSync(fd, buffer, offset, length);
      if (budget <= 0) throw sysError("ENOSPC");
      const n = nodeStoreFs.writeSync(fd, buffer, offset, Math.min(length, budget));
      faults.writeBudget = budget - n;
      return n;
    },
    fsyncSync(fd) {
      count("fsyncSync");
      if (faults.failFsync) throw sysError("EIO");
      nodeStoreFs.fsyncSync(fd);
    },
    ftruncateSync(fd, length) {
      count("ftruncateSync");
      if (faults.failTruncate) throw sysError("EIO");
      nodeStoreFs.ftruncateSync(fd, length);
    },
    renameSync(from, to) {
      count("renameSync");
      if (faults.failRename) throw sysError("EIO");
      nodeStoreFs.renameSync(from, to);
    },
    linkSync(existing, to) {
      count("linkSync");
      if (faults.linkError) throw sysError(faults.linkError);
      nodeStoreFs.linkSync(existing, to);
    },
    statSync(path) {
      count("statSync");
      return nodeStoreFs.statSync(path);
    },
  };
}

/** The package directory: children run from here so `--import tsx` resolves. */
const packageDir = fileURLToPath(new URL("../../", import.meta.url));

/** File URL of a store module, for child processes. */
export function storeModuleUrl(name: string): string {
  return new URL(`../../src/store/${name}.ts`, import.meta.url).href;
}

/**
 * Runs an ES module snippet in a separate Node process (with tsx) and waits for it. With
 * `fileSizeBlocks`, the child runs under `ulimit -f` (RLIMIT_FSIZE; the shell's blocks are 512
 * or 1024 bytes): a write past the limit is cut short, the next fails with EFBIG (Node ignores
 * SIGXFSZ) — a full file system for one process, no mount or root needed.
 */
export function runChild(
  code: string,
  options: { readonly fileSizeBlocks?: number } = {},
): { status: number | null; stdout: string; stderr: string } {
  const node = [process.execPath, "--import", "tsx", "--input-type=module", "-e", code];
  const [command, ...args] =
    options.fileSizeBlocks === undefined
      ? node
      : ["/bin/sh", "-c", `ulimit -f ${options.fileSizeBlocks} && exec "$@"`, "sh", ...node];
  const result = spawnSync(command as string, args, { cwd: packageDir, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Starts a Node process that runs `code` and then stays alive until killed; resolves once it
 * prints `ready`. The caller kills it.
 */
export function startChild(code: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `${code}\nconsole.log("ready"); setInterval(() => {}, 1000);`,
    ],
    { cwd: packageDir, stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (data: Buffer) => {
      if (data.toString().includes("ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`child exited early with ${code}`)));
  });
}

/** Waits for a child process to exit after it was signalled. */
export function waitExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** The pid of a process that has already exited (for stale-lock tests). */
export function deadPid(): number {
  const result = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(result.stdout);
}
