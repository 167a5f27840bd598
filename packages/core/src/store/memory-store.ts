import type { SessionSink, SessionStore, StoredSession } from "./session-store.js";

/** The sink of a session that lives only in memory: every append is "durable" at once. */
export const memorySink: SessionSink = {
  location: undefined,
  written: false,
  failure: undefined,
  append() {},
  changedElsewhere: () => false,
  flush: () => Promise.resolve(),
  release() {},
  close() {},
};

/** The store of `SessionManager.inMemory` and `fromJsonl` (opening a file switches stores). */
export const memoryStore: SessionStore = {
  persisted: false,
  dir: "",
  locationOf: () => undefined,
  create: () => memorySink,
  open(location): never {
    throw new Error(`An in-memory session store cannot open ${location}`);
  },
  read(location): StoredSession {
    throw new Error(`An in-memory session store cannot read ${location}`);
  },
};
