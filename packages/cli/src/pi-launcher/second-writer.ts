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

/** The id of the session in a session file's name (`<time>_<id>.jsonl`), else the name. */
function sessionIdOf(file: string | undefined): string {
  const name = (file ?? "").split(/[\\/]/).at(-1) ?? "";
  return /_([^_]+)\.jsonl$/.exec(name)?.[1] ?? name;
}

/**
 * How many leading characters tell two session ids apart: 8, or up to their first difference.
 * pi's ids are UUIDv7, whose first 8 hex digits are the top of a millisecond clock and stay the
 * same for about 65 seconds, so a session and a fork made within that share them.
 */
function distinctPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return Math.max(8, n + 1);
}

/**
 * The one line that says a write went into a fork, and why: with both files' paths, or, when
 * `width` says the line must fit a terminal row (pi's TUI owns the screen), shorter forms with
 * the sessions' ids (pi's `--session` takes them), cut to the width as a last resort.
 */
export function forkLine(event: SessionSwitchedEvent, width?: number): string {
  const holder = event.refusal instanceof SessionLockedError ? event.refusal.holder : undefined;
  const other = holder ? `another pi (pid ${holder.pid}) is writing` : "another process changed";
  const full = `pi-sessions: ${other} ${event.previousFile ?? "the session"}; this pi continues in a new session forked from it: ${event.file}`;
  if (width === undefined || full.length <= width) return full;
  const [from, to] = [sessionIdOf(event.previousFile), sessionIdOf(event.file)];
  const short = distinctPrefixLength(from, to);
  const forms = [
    `pi-sessions: ${other} session ${from}; this pi continues in a new session forked from it: ${to}`,
    `pi-sessions: ${other} session ${from.slice(0, short)}; continuing in its fork ${to}`,
    `pi-sessions: ${other} session ${from.slice(0, short)}; continuing in its fork ${to.slice(0, short)}`,
  ];
  const fits = forms.find((line) => line.length <= width);
  return fits ?? (forms.at(-1) as string).slice(0, Math.max(0, width));
}

/**
 * Says that a write went into a fork, on stderr (pi keeps stdout for its own output); on a
 * terminal, fitted to one row, where pi's TUI shows it until the editor is next drawn.
 */
export function announceFork(event: SessionSwitchedEvent): void {
  const stderr = process.stderr;
  process.stderr.write(`${forkLine(event, stderr.isTTY ? stderr.columns : undefined)}\n`);
}
