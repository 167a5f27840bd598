/**
 * A generated sessions root and the facts an oracle needs about it: which files it holds,
 * how each was made (a session, a fork, a branched copy, a copy under another cwd folder, a
 * damaged or legacy file), which of its records are copies of which, and which odd values
 * were planted where.
 *
 * The folder is data, not disk: {@link folderFileText} renders a file for a given root, so
 * `parentSession` (an absolute path, as pi writes it) points into whatever temporary
 * directory the folder is written to.
 */
import type { HostileValueName } from "./hostile-values.js";

/** Stands for the sessions root in a header's `parentSession` until the folder is written. */
export const SESSIONS_ROOT = "<sessions-root>";

/** How a file came to be in the folder. */
export type FolderFileKind =
  /** A session written by pi, with its own records. */
  | "session"
  /** `SessionManager.forkFrom(source, cwd)`: a new header, then every record of the source. */
  | "fork"
  /** `createBranchedSession(leafId)`: the path to the leaf, labels dropped and recreated. */
  | "branched"
  /** The same file (same name, same text) under a second cwd folder. */
  | "copy"
  /** A session with garbage, non-object, blank or torn lines mixed in. */
  | "damaged"
  /** A version 1 or 2 file, as older pi wrote it. */
  | "legacy";

/** How a derived file is made: `forkFrom`, `createBranchedSession`, or a copy of the file. */
export type DerivedKind = "fork" | "branched" | "copy";

/** Where a header's `parentSession` leads. */
export type ParentLink =
  /** To the source file, inside this root. */
  | "resolvable"
  /** To the source's path under another sessions root (the folder was moved or copied). */
  | "moved"
  /** To a file that is not there (the parent was deleted). */
  | "deleted";

/** One record of a file, with the record it is a copy of. */
export interface FolderRecord {
  /** The parsed record, as a reader must see it. */
  readonly entry: Readonly<Record<string, unknown>>;
  /**
   * The record's identity across the folder: `<path of the file it was first written to>#<n>`.
   * Copies (forks, branched sessions, files under two folders) and exact duplicate lines keep
   * the origin of the record they repeat; everything else has an origin of its own.
   */
  readonly origin: string;
}

/** One file of a generated folder. */
export interface FolderFile {
  /** Path relative to the sessions root, `/`-separated: `--home-dev-app--/<ts>_<id>.jsonl`. */
  readonly path: string;
  readonly kind: FolderFileKind;
  /** The header as written (`parentSession` relative to {@link SESSIONS_ROOT}), or null. */
  readonly header: Readonly<Record<string, unknown>> | null;
  /** The records after the header that a reader must see, in file order. */
  readonly records: readonly FolderRecord[];
  /** The file text, with {@link SESSIONS_ROOT} standing for the root (see {@link folderFileText}). */
  readonly text: string;
  /** For a fork, branched session or copy: the path of the file it was made from. */
  readonly source?: string;
  /** Every file this one was made from, nearest first (deleted ones included). */
  readonly ancestors: readonly string[];
  /** For a fork or branched session: where its `parentSession` leads. */
  readonly parentLink?: ParentLink;
  /** For a branched session: the entry id it was branched at. */
  readonly branchedAt?: string;
  /** The leaf a reader that opens the file gets: the id of its last record with an id. */
  readonly leafId: string | null;
  /** Odd values planted in this file (see {@link HostileValueName}). */
  readonly values: readonly HostileValueName[];
}

/** A generated sessions root. */
export interface SessionFolder {
  /** The files that exist, in creation order (a deleted parent is not among them). */
  readonly files: readonly FolderFile[];
  /** Paths of files that were made and then deleted (a `deleted` parent link names one). */
  readonly deleted: readonly string[];
  /** Odd values planted anywhere in the folder. */
  readonly values: readonly HostileValueName[];
}

/** The text of `file` for a sessions root at `root` (its `parentSession` made absolute). */
export function folderFileText(file: FolderFile, root: string): string {
  const escaped = JSON.stringify(root).slice(1, -1);
  const marker = JSON.stringify(SESSIONS_ROOT).slice(1, -1);
  const end = file.text.indexOf("\n");
  const first = end < 0 ? file.text : file.text.slice(0, end);
  return first.split(marker).join(escaped) + (end < 0 ? "" : file.text.slice(end));
}

/** The absolute path a header's relative `parentSession` names under `root`. */
export function resolveParentSession(parentSession: string, root: string): string {
  return parentSession.startsWith(SESSIONS_ROOT)
    ? root + parentSession.slice(SESSIONS_ROOT.length)
    : parentSession;
}
