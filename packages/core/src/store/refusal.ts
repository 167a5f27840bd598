import { SessionLockedError } from "./lock.js";
import { SessionConflictError } from "./writer-errors.js";

/**
 * Whether an append was refused because another process (or tool) writes the session file:
 * it holds the lock (W7), or the file is not what we last read (its lines, a replacement).
 * Not when a newer manager of this process took the file over (pi's own resume flows), and
 * not when the file was deleted (W8): those keep their errors.
 */
export function isForeignRefusal(
  error: unknown,
): error is SessionLockedError | SessionConflictError {
  if (error instanceof SessionLockedError) return true;
  return error instanceof SessionConflictError && !error.inProcess;
}
