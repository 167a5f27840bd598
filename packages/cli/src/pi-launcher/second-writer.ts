/**
 * A second pi on one session (SPEC L3). pi alone lets two processes append to one file, which
 * forks it silently (each sees only its own turns). Through the launcher the first process to
 * write holds the session's lock, and the other's next write — a prompt, a model or thinking
 * level change, a name — goes into a new session forked from the one it had open, written at
 * once with everything it showed and `parentSession` naming the original, exactly what pi's own
 * `--fork` makes (core's `whenRefused: "fork"`). Nothing typed is lost, the original never
 * forks, and no write reports success while landing nowhere. Read-only was the other choice;
 * it would have to refuse a prompt pi has already sent to the model, which pi cannot take
 * back, so the turn would be lost. The fork is said here, in one line on stderr, in every mode.
 */

import { SessionLockedError, type SessionSwitchedEvent } from "@pi-sessions/core";

/** The one line that says a write went into a fork, and why. */
export function forkLine(event: SessionSwitchedEvent): string {
  const from = event.previousFile ?? "the session";
  const holder = event.refusal instanceof SessionLockedError ? event.refusal.holder : undefined;
  const why = holder
    ? `another pi (pid ${holder.pid} on ${holder.host}) is writing ${from}`
    : `${from} was changed by another process since this pi read it`;
  return `pi-sessions: ${why}; this pi continues in a new session forked from it: ${event.file}`;
}

/** Says that a write went into a fork, on stderr (pi keeps stdout for its own output). */
export function announceFork(event: SessionSwitchedEvent): void {
  process.stderr.write(`${forkLine(event)}\n`);
}
