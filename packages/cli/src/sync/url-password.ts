/**
 * A database URL as it may be said on a terminal or in a log: its password (`user:secret@`,
 * `?password=secret`) replaced by `***`.
 */

/**
 * `url` with its password replaced by `***`. The user part ends at the last `@` before the
 * host, as URL parsers read it (a password may hold `@` and `/`); when in doubt more is hidden,
 * never less.
 */
export function withoutPassword(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@?#]*):.*@/i, "$1:***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}
