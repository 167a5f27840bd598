/**
 * Stores the conformance and model suites run against. A store makes fresh session managers
 * of one implementation over one kind of storage (memory, JSONL files, a database) and, where
 * the storage outlives a manager, opens a new manager over what an old one stored. The suites
 * await every call, so an asynchronous store (writes queued behind pi's synchronous API,
 * `flush()` resolving when they are durable) plugs in the same way as the synchronous ones.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * One implementation over one kind of storage, as the suites drive it: a factory of session
 * managers (not a `SessionStore`, which is core's storage port under one manager).
 */
export interface ManagerFactory {
  /** Shown in reports, e.g. `core memory` or `reference jsonl`. */
  readonly name: string;
  /** A fresh, empty session manager (any object with the reference manager's methods). */
  create(): object | Promise<object>;
  /** Resolves when every write `manager` has queued is durable (absent: writes are at once). */
  flush?(manager: object): Promise<void>;
  /**
   * A new manager over what `manager` stored (a reopened file, a new connection), or
   * undefined while nothing is stored yet (a JSONL session before its first assistant
   * message, SPEC §6.2). Absent for stores that keep nothing beyond the manager (memory).
   */
  reopen?(manager: object): object | undefined | Promise<object | undefined>;
  /** Releases what the store holds: open managers' locks, temporary directories. */
  dispose?(): void | Promise<void>;
}

/** The static factories of a SessionManager class the built-in stores call. */
export interface StoreStatics {
  inMemory(cwd?: string): object;
  create(cwd: string, sessionDir?: string): object;
  open(path: string, sessionDir?: string): object;
}

const CWD = "/work/project";
/** The `SessionManager` class of a module (ours and the reference's session module qualify). */
const statics = (module: object): StoreStatics =>
  (module as { SessionManager: StoreStatics }).SessionManager;

/** Closes a manager's file handle and lock when the implementation has `close()` (ours). */
function closeManager(manager: unknown): void {
  const close = (manager as { close?: unknown } | null)?.close;
  if (typeof close === "function") close.call(manager);
}

/** `SessionManager.inMemory(cwd)` of `module`: nothing outlives the manager. */
export function memoryStore(module: object, name = "memory"): ManagerFactory {
  return { name, create: () => statics(module).inMemory(CWD) };
}

/**
 * `SessionManager.create(cwd, dir)` of `module` in a temporary directory; `reopen` opens the
 * manager's session file with `SessionManager.open` once the file exists. `dispose` closes
 * every manager it made or opened and removes the directory.
 */
export function jsonlFileStore(
  module: object,
  options: { name?: string; tmpDir?: string } = {},
): ManagerFactory {
  let dir: string | undefined;
  const managers: object[] = [];
  const sessionDir = (): string => {
    dir ??= mkdtempSync(join(options.tmpDir ?? tmpdir(), "pi-store-"));
    return dir;
  };
  const track = (manager: object): object => {
    managers.push(manager);
    return manager;
  };
  return {
    name: options.name ?? "jsonl",
    create: () => track(statics(module).create(CWD, sessionDir())),
    reopen(manager) {
      const file = (manager as { getSessionFile?: () => string | undefined }).getSessionFile?.();
      if (file === undefined || !existsSync(file)) return undefined;
      closeManager(manager);
      return track(statics(module).open(file, sessionDir()));
    },
    dispose() {
      for (const m of managers.splice(0)) closeManager(m);
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    },
  };
}
