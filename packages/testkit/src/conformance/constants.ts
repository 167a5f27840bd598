/**
 * Exact texts the SPEC fixes (§1.4, §5.5); tests match on them.
 */

/** `assertValidSessionId`'s message (SPEC §1.4). */
export const INVALID_ID_MESSAGE =
  "Session id must be non-empty, contain only alphanumeric characters, '-', '_', and '.', and start and end with an alphanumeric character";

/** The message for a non-empty file that is not a session (SPEC §5.5). */
export const notASession = (path: string): string =>
  `Session file is not a valid pi session: ${path}`;

/** The message for a fork source that is missing, empty or invalid (SPEC §5.5). */
export const cannotFork = (path: string): string =>
  `Cannot fork: source session file is empty or invalid: ${path}`;
