import { asError } from "../env/as-error.js";
import type { SessionEntry } from "../schema/types.js";
import type { SessionSink, StoredSessionContent } from "./session-store.js";
import { isConversationEntry } from "./store-helpers.js";

/** What an asynchronous store writes; one call at a time, in append order. */
export type QueuedWrite =
  /** The session's first write: its header and every entry so far. */
  | { readonly kind: "create"; readonly content: StoredSessionContent }
  /**
   * One appended entry of a session already written: `line` is its JSON text exactly as the
   * manager serialised and folded it (write it as it is); `entry` is the same value as an entry,
   * made only when read (a store that writes the line never pays for it). `entry` is a getter:
   * `JSON.stringify` writes it, but a spread or `structuredClone` of the write copies `kind`
   * and `line` only.
   */
  | { readonly kind: "append"; readonly line: string; readonly entry: SessionEntry };

/** Options of {@link queuedSink}. */
export interface QueuedSinkOptions {
  /** Where the session lives (a database key, a URL), reported as the session file. */
  readonly location: string | undefined;
  /** Performs one write; resolves when it is durable. */
  readonly write: (write: QueuedWrite) => Promise<void>;
  /** Whether the session exists in the store already (opened rather than created). */
  readonly written?: boolean;
  /** Called when the manager is done with the session (switches away). */
  readonly close?: () => void;
}

/** The append member of {@link QueuedWrite}: the shape the class below is checked against. */
type AppendedLineWrite = Extract<QueuedWrite, { kind: "append" }>;

/**
 * The queued write of one appended line; its entry is decoded from the line once, on first
 * read. Not from the manager's `entry()`: that answers for the entry appended last, valid only
 * during the append call, and the queue reaches this write later.
 */
class AppendWrite implements AppendedLineWrite {
  readonly kind = "append";
  #made: SessionEntry | undefined;

  constructor(readonly line: string) {}

  // On the prototype, not an object literal's own getter: every append makes one of these,
  // and a literal with an accessor is built by the runtime's slow path (2-3 % of the busy
  // client samples in a profile of 6,000 one-writer appends).
  get entry(): SessionEntry {
    this.#made ??= JSON.parse(this.line) as SessionEntry;
    return this.#made;
  }

  /** As JSON (a store forwarding its writes): `{ kind, line, entry }`, as the type says. */
  toJSON(): AppendedLineWrite {
    return { kind: this.kind, line: this.line, entry: this.entry };
  }
}

/**
 * The sink of an asynchronous store (a database): pi's API is synchronous, so each append is
 * folded at once and its write queued behind the previous ones (a new session's first write is
 * whole, SPEC §6.2). The first failed write sets `failure` (the manager then refuses every
 * write, `flush()` rejects) and stops the queue, so the store never holds a gap.
 */
export function queuedSink(options: QueuedSinkOptions): SessionSink & {
  /** Queues the first write of a session created with content (a fork, a branch). */
  createWith(content: StoredSessionContent): void;
  /** Queues one appended entry as its line (see {@link SessionSink.appendLine}). */
  appendLine(line: string, entry: () => SessionEntry, session: () => StoredSessionContent): void;
} {
  let written = options.written ?? false;
  let failure: Error | undefined;
  let tail: Promise<void> = Promise.resolve();
  const failed = (error: unknown): void => {
    failure ??= asError(error);
  };
  // Each write starts once the one before settled, unless one failed. Not an async function:
  // the write's own promise is what the queue waits for (a lone writer waits for every hop).
  const start = (w: QueuedWrite): Promise<void> | undefined => {
    if (failure) return undefined;
    try {
      return options.write(w).then(undefined, failed);
    } catch (error) {
      // A write that throws instead of rejecting fails the queue all the same.
      failed(error);
      return undefined;
    }
  };
  const enqueue = (w: QueuedWrite): void => {
    tail = tail.then(() => start(w));
  };
  return {
    location: options.location,
    get written() {
      return written;
    },
    get failure() {
      return failure;
    },
    createWith(content) {
      written = true;
      enqueue({ kind: "create", content });
    },
    append(entry, session) {
      this.appendLine(JSON.stringify(entry), () => entry, session);
    },
    appendLine(line, entry, session) {
      if (written) enqueue(new AppendWrite(line));
      else if (isConversationEntry(entry())) this.createWith(session());
    },
    changedElsewhere: () => false,
    flush: () =>
      tail.then(() => {
        if (failure) throw failure;
      }),
    release() {},
    close() {
      options.close?.();
    },
  };
}
