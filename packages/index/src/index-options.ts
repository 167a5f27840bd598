/** The options and scopes of {@link SessionIndex}'s listings. */

import type { SessionInfo } from "@pi-sessions/core";
import type {
  ListingOptions,
  ListSessionsOptions,
  ShapedSessionInfo,
} from "@pi-sessions/core/internal";
import { defaultIndexFile } from "./location.js";
import { DEFAULT_SETTLE_MS } from "./settled.js";

/** What a listing covers: its files' rows and which directories they lie in. */
export interface Scope {
  /** Whether a file in directory `dir` is the listing's to find. */
  readonly inScope: (dir: string) => boolean;
  /**
   * Every path the listing can meet starts with this; its rows are read in one query at the
   * first lookup. `null`: none is read up front (each lookup finds its own row).
   */
  readonly prefix: string | null;
  /** The rows of the scope's files (read when the listing met none). */
  readonly stored: () => Iterable<{ id: number; path: string }>;
}

/** Options of {@link openSessionIndex}. */
export interface SessionIndexOptions {
  /** The index file; default {@link defaultIndexFile} (`PI_SESSIONS_INDEX`, the XDG cache). */
  readonly file?: string;
  /** The environment the default file is read from (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a write waits for another process's write to finish (ms, default 30 000). */
  readonly busyTimeoutMs?: number;
  /** Told, in one line each, whenever the index had trouble and what was done about it. */
  readonly onNotice?: (message: string) => void;
  /**
   * How long after a file's last change (its ctime) its stat alone vouches for its row, in ms
   * (default 5 000): a file changed more recently is checked by hash. Keep it above the
   * coarsest timestamp granule of the filesystems the sessions live on.
   */
  readonly settleMs?: number;
}

/** {@link SessionIndexOptions} with every default filled in. */
export interface IndexSettings {
  readonly file: string;
  readonly busyTimeoutMs: number;
  readonly notice: (message: string) => void;
  readonly settleMs: number;
}

/** The settings `options` give, defaults filled in (one place for them). */
export function indexSettings(options: SessionIndexOptions): IndexSettings {
  return {
    file: options.file ?? defaultIndexFile(options.env),
    busyTimeoutMs: options.busyTimeoutMs ?? 30_000,
    notice: options.onNotice ?? (() => {}),
    settleMs: options.settleMs ?? DEFAULT_SETTLE_MS,
  };
}

/** Options of the lower-level listings ({@link SessionIndex.listDir}, `listProjects`). */
export interface IndexListingOptions extends Omit<ListingOptions, "cache"> {
  /** Load each info's `allMessagesText` (default true); when false it is `""`. */
  readonly withText?: boolean;
  /**
   * Also store every record of each file read and its search text, as a search needs them
   * (default false: a listing stores each file's listing answer alone, about what reading the
   * files costs anyway, and the first `search`, `sync` or `session` fills in the records).
   */
  readonly records?: boolean;
}

/** Options of {@link SessionIndex.listDir}. */
export type IndexDirListingOptions = IndexListingOptions &
  Pick<ListSessionsOptions, "filterCwd" | "emptyCwdMatches">;

/** What the listings resolve: infos with their shape given `withShape: true`. */
export type IndexListed<O> = O extends { readonly withShape: true }
  ? ShapedSessionInfo
  : SessionInfo;
