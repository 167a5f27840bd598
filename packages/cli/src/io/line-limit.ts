/**
 * How much one line of a session file may cost a read-only command. A session line can be
 * anything a model or a user produced — a pasted file, a base64 image, a runaway tool output —
 * and reading it whole costs many times its size (text, parsed value, summaries). Past the
 * bound, a line is left unread and reported with its size (core's `maxLineBytes`).
 */

import { usageError } from "./errors.js";

/** The line bound of read-only commands when `PI_SESSIONS_MAX_LINE_BYTES` does not set one. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * The most bytes one line may have for a read-only command to read it: `PI_SESSIONS_MAX_LINE_BYTES`
 * (a whole number ≥ 1) or {@link DEFAULT_MAX_LINE_BYTES}. A longer line is reported as a
 * `line-too-long` problem with its size and left unread, so a 200 MB line costs a command no
 * more than this bound; `check --repair` and `migrate` still keep it byte for byte.
 */
export function lineLimitOf(env: NodeJS.ProcessEnv): number {
  const raw = env.PI_SESSIONS_MAX_LINE_BYTES;
  if (raw === undefined || raw === "") return DEFAULT_MAX_LINE_BYTES;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw usageError(
      `PI_SESSIONS_MAX_LINE_BYTES=${raw}: expected a whole number of bytes, at least 1`,
    );
  }
  return Number(raw);
}
