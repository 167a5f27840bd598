import type { SessionEntry } from "../schema/types.js";
import type { SessionSink, StoredSessionContent } from "./session-store.js";
import { isConversationEntry } from "./store-helpers.js";

/** What an asynchronous store writes; one call at a time, in append order. */
export type QueuedWrite =
  /** The session's first write: its header and every entry so far. */
  | { readonly kind: "create"; readonly content: StoredSessionContent }
  /** One appended entry of a session already written. */
  | { readonly kind: "append"; readonly entry: SessionEntry };

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

/**
 * The sink of an asynchronous store (a database): pi's API is synchronous, so each append is
 * folded at once and its write queued behind the previous ones (a new session's first write is
 * whole, SPEC §6.2). The first failed write sets `failure` (the manager then refuses every
 * write, `flush()` rejects) and stops the queue, so the store never holds a gap.
 */
export function queuedSink(options: QueuedSinkOptions): SessionSink & {
  /** Queues the first write of a session created with content (a fork, a branch). */
  createWith(content: StoredSessionContent): void;
} {
  let written = options.written ?? false;
  let failure: Error | undefined;
  let tail: Promise<void> = Promise.resolve();
  const enqueue = (w: QueuedWrite): void => {
    tail = tail.then(async () => {
      if (failure) return;
      try {
        await options.write(w);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
    });
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
      if (written) enqueue({ kind: "append", entry });
      else if (isConversationEntry(entry)) this.createWith(session());
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
