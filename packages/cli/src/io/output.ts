/**
 * Shared output helpers: colours that switch on only for a terminal, JSON for scripts, and the
 * small formatters (sizes, dates, columns) every human-readable listing uses.
 */

import type { CliIo, OutputStream } from "./io.js";
import { jsonForTerminal } from "./terminal-text.js";

/**
 * Whether colours go to `stream`: only to a TTY, never when `NO_COLOR` is set (no-color.org);
 * `FORCE_COLOR` (non-empty, not "0") forces them on, for screenshots and demos.
 */
export function colorEnabled(stream: OutputStream, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "" && force !== "0") return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return stream.isTTY === true;
}

/**
 * Writes a value as pretty JSON on stdout: exact, and safe on a terminal (see
 * `jsonForTerminal`). `Date`s become ISO strings through `toJSON`; `Map`s and `Set`s have no
 * JSON form, so commands convert them before calling this.
 */
export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${jsonForTerminal(JSON.stringify(value, null, 2))}\n`);
}

/** A byte count for people: `512 B`, `3.4 KB`, `1.2 MB` (powers of 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/**
 * A date as `YYYY-MM-DD HH:MM` in UTC. UTC rather than local time so outputs (and the README
 * examples captured from them) read the same on every machine.
 */
export function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "(unknown)";
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** A count with thousands separators, e.g. `12,345`, independent of the machine's locale. */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Whitespace other than a single space: where flattening changes anything. */
const UNFLAT = /[^\S ]| {2}/;

/**
 * `text` on one line: runs of whitespace as one space, trimmed. Looked at once before it is
 * rewritten: most texts have only single spaces, and rewriting every one of them (each is a
 * run) costs a table of ten thousand rows more than the rest of a row.
 */
function flatten(text: string): string {
  return (UNFLAT.test(text) ? text.replace(/\s+/g, " ") : text).trim();
}

/**
 * Cuts text to `max` characters on one line: newlines and runs of whitespace become one space,
 * and an ellipsis marks the cut. Costs O(`max`), not O(text): flattening a prefix gives a
 * prefix of the whole text's flattening, so when a prefix of `2 * max + 16` characters already
 * flattens to more than `max`, the cut falls inside it (a 30 MB message is never copied whole
 * to show 80 characters of it).
 */
export function truncate(text: string, max: number): string {
  const head = 2 * max + 16;
  if (max > 1 && text.length > head) {
    const start = flatten(text.slice(0, head));
    if (start.length > max) return `${start.slice(0, max - 1)}…`;
  }
  const flat = flatten(text);
  if (flat.length <= max) return flat;
  return max <= 1 ? flat.slice(0, max) : `${flat.slice(0, max - 1)}…`;
}

/** Pads (or keeps) `text` to `width` visible characters; `right` aligns numbers. */
export function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}
