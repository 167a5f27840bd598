/** Option value parsers for commander; a bad value is a usage error (exit 2). */

import { InvalidArgumentError } from "commander";

/** Parses a whole number ≥ 1 (`--depth`); rejects `0`, `-1`, `2.5`, `abc`. */
export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new InvalidArgumentError("expected a whole number of at least 1");
  }
  return Number(value);
}

/** Parses a date or date-time (`2026-01-31`, `2026-01-31T12:00`, ISO 8601) for `--since`. */
export function parseDate(value: string): Date {
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new InvalidArgumentError("expected a date such as 2026-01-31");
  return new Date(time);
}
