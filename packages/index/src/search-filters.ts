/** The filters a search takes (their own module: the ranking and the search both read them). */

/** Filters of {@link SessionIndex.search} (all optional; they combine with AND). */
export interface SearchFilters {
  /** The sessions root searched (default: pi's, `<agentDir>/sessions`); it is synced first. */
  readonly dir?: string;
  /** Only sessions whose header cwd is this directory. */
  readonly cwd?: string;
  /** Only entries of this role (or these): `user`, `assistant`, `toolResult`, `custom`. */
  readonly role?: string | readonly string[];
  /** Only entries written by this model id (assistant messages, model changes). */
  readonly model?: string;
  /** Only entries at or after this time. */
  readonly since?: Date;
  /** Only entries before this time. */
  readonly until?: Date;
  /** Only this session: its id, a prefix of it, or its file's path. */
  readonly session?: string;
  /** At most this many hits (default 20). */
  readonly limit?: number;
  /**
   * Bring the index up to date with the files first (default true). `false` searches the rows
   * as they are, for a caller that has just synced (a hit may then point at changed text).
   */
  readonly refresh?: boolean;
}
