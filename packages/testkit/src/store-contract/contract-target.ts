/**
 * What {@link storeContract} needs of a store besides core's `SessionStore` port: the few
 * things a test of a store must do behind its back (read what it persisted, put an obstacle
 * where a session would go) and the asynchronous step a store of a remote service takes before
 * the port's synchronous `open` and `read`.
 */
import type { SessionStore } from "@pi-sessions/core";

/** One store, freshly made and empty, as the contract drives it. */
export interface ContractStore {
  /** The store under test, driven through core's `SessionStore` port. */
  readonly store: SessionStore;
  /**
   * Readies `location` for the port's synchronous `open` (`"open"`) or `read` (`"read"`): a
   * database store loads it here (absent: nothing to do, as for files).
   */
  prepare?(location: string, purpose: "open" | "read"): Promise<void>;
  /**
   * What the storage holds at `location`, read behind the store's back (a file's bytes, a
   * session's rows), as a value `deepStrictEqual` compares; `undefined` when nothing is there.
   */
  persistedAt(location: string): Promise<unknown>;
  /**
   * Puts something at `location` that is not this session, so that a session's first write
   * there must fail (a directory where the file goes, another session's row of that id).
   * Absent for a store that never fails a write (memory).
   */
  obstruct?(location: string): Promise<void>;
  /** Releases what the store holds (connections, temporary folders). */
  dispose?(): Promise<void>;
}

/** A kind of store the contract runs against: its name and a maker of fresh, empty ones. */
export interface StoreContractTarget {
  /** Shown in each case's name, e.g. `file` or `postgres`. */
  readonly name: string;
  /** A fresh, empty store of this kind (each case makes its own). */
  make(): Promise<ContractStore>;
}

/** Options of {@link storeContract}. */
export interface StoreContractOptions {
  /** fast-check parameters of the property cases (`numRuns`, `seed`); default 50 runs. */
  readonly fc?: { readonly numRuns?: number; readonly seed?: number };
  /** Whether the store lists its sessions (`list`, `listAll`) and the listing case runs (default true). */
  readonly listing?: boolean;
  /** The cwd of the sessions the contract writes (default `/work/store-contract`). */
  readonly cwd?: string;
}

/** One case of the contract: run it under any test runner; it throws when the store fails. */
export interface StoreContractCase {
  /** What it checks, with the store's name and, for a property, its run count. */
  readonly name: string;
  /** Runs the case; rejects with an `AssertionError` (or fast-check's report) on a breach. */
  run(): Promise<void>;
}
