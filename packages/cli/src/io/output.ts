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
  return formatDateMs(date.getTime());
}

/** `00` to `99`. */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));

/** Milliseconds in a day, and Date's largest time value either side of the epoch. */
const DAY_MS = 86_400_000;
const MAX_TIME = 8.64e15;

/**
 * {@link formatDate} of `new Date(ms)` without making the `Date`: the calendar day from the
 * day number by the civil-from-days rule (H. Hinnant's), which is what `toISOString` prints.
 * A ten-thousand-row table made a `Date`, an ISO string and two cuts of it per row: a fifth of
 * a warm `ls --all`. Years outside 0–9999 (six-digit ISO years) go through the `Date`.
 */
export function formatDateMs(ms: number): string {
  // A Date's time value: whole milliseconds toward zero, NaN beyond ±8.64e15.
  const time = Math.trunc(ms);
  if (!(time >= -MAX_TIME && time <= MAX_TIME)) return "(unknown)";
  const days = Math.floor(time / DAY_MS);
  const minutes = Math.floor((time - days * DAY_MS) / 60_000);
  const hour = Math.floor(minutes / 60);
  const clock = `${TWO_DIGITS[hour]}:${TWO_DIGITS[minutes - hour * 60]}`;
  // A listing's times come newest first, many on one day: its date is made once.
  if (days === lastDay.days) return lastDay.date + clock;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return new Date(time).toISOString().slice(0, 16).replace("T", " ");
  lastDay.days = days;
  lastDay.date = `${String(year).padStart(4, "0")}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]} `;
  return lastDay.date + clock;
}

/** The day {@link formatDateMs} last formatted, and its `YYYY-MM-DD ` (years 0–9999 only). */
const lastDay = { days: Number.NaN, date: "" };

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
