/**
 * Odd but valid values that tools reading session files get wrong, opt-in by name: a tool asks
 * for exactly the ones its contract covers (`sessionFolderArb({ values: [...] })`). Each name
 * documents the rule it exercises; the oracles apply that rule.
 *
 * Values are planted into a session's records before any fork or copy is made of it, so the
 * copies carry them too, as they would on disk.
 */
import fc from "fast-check";
import { usageSourceOf } from "./usage-source.js";

/** The odd values {@link sessionFolderArb} can plant, each with the rule it exercises. */
export const HOSTILE_VALUES = {
  "timestamp-microseconds":
    "An entry timestamp with six fraction digits (`…:02.123456Z`). It is one instant: order and day come from parsing it, not from slicing the string.",
  "timestamp-offset":
    "An entry timestamp with an offset instead of `Z` (`…T15:30:00.000+05:30`). The day of a record is the UTC day of that instant.",
  "numeric-strings":
    'A usage count or cost written as a string (`"input":"400"`). A field that is not a finite number counts as 0 (the record still counts).',
  "cost-without-tokens":
    "A usage object with a cost but no token counts. The record counts, its cost counts, its tokens are 0.",
  "zero-and-negative":
    "A usage field that is 0 or negative. 0 counts as 0; a negative number counts as 0 (a negative `totalTokens` falls back to the sum of the four counts).",
  "no-total-tokens":
    "A usage object without `totalTokens` (older pi). Its total is `input + output + cacheRead + cacheWrite`.",
  "duplicate-lines":
    'An exact duplicate of a line, right after it (a write repeated, e.g. after a retry). By default both copies count in the whole tree of that file, as every line of `getEntries()` is a record (the rule of `@pi-sessions/plugins`); a tool that counts one API call once asks the oracle for `duplicateLines: "once"`. The branch counts the entry once either way.',
  "line-separators":
    "U+2028 and U+2029 inside a string, written raw as `JSON.stringify` writes them. Lines split on `\\n` only.",
  bom: "A byte-order mark at the start of the file. Usage: its records still count (a reader that trims it, as `loadEntriesFromFile` does, reads them all). Listing: a BOM right before the header makes that line no JSON, so the file has no header and is dropped, as pi's listing drops it.",
  "long-lines":
    "A line far longer than common read buffers (default 100,000 characters). Nothing is cut or dropped.",
  collisions:
    "Two records in different sessions with the same timestamp and the same usage (so the same `totalTokens`). They are two records: only copies of one record (same entry id) are one.",
  "entry-id-collisions":
    "Two records in different sessions with the same entry id but different timestamps (pi draws 8 hex digits per entry, unique within a file only). They are two records: a reader that takes an entry id alone for a copy drops one.",
  "big-integers":
    "A usage count that is an integer beyond 2^53 (exact in a double), 2^63 or 2^64 (`18446744073709552000`). The line is valid JSON and its record counts: a reader that parses counts into 64-bit integers must not drop the line. Totals compare within a relative 1e-9, as sums of doubles depend on their order.",
  "html-text":
    "Message text that looks like HTML (`<script>`, `<img onerror>`, an entity `&lt;b&gt;`). It is text: a transcript shows it as written, and an HTML export escapes it.",
} as const;

/** The name of an odd value (see {@link HOSTILE_VALUES}). */
export type HostileValueName = keyof typeof HOSTILE_VALUES;

/** Every odd value name. */
export const HOSTILE_VALUE_NAMES = Object.keys(HOSTILE_VALUES) as HostileValueName[];

/** One planted value: which one, and numbers choosing the file, the record and the variant. */
export interface HostileValueSpec {
  readonly name: HostileValueName;
  /** Which session (or file, for `bom`) it goes to, modulo their count. */
  readonly at: number;
  /** Which record, modulo the candidates. */
  readonly pick: number;
  /** Which field, offset or digits; for `collisions`, which other session. */
  readonly variant: number;
}

/** Specs over the given names (none when `names` is empty). */
export function hostileValueSpecArb(
  names: readonly HostileValueName[],
  maxValues: number,
): fc.Arbitrary<HostileValueSpec[]> {
  if (names.length === 0) return fc.constant([]);
  return fc.array(
    fc.record(
      { name: fc.constantFrom(...names), at: fc.nat(), pick: fc.nat(), variant: fc.nat() },
      { noNullPrototype: true },
    ),
    { maxLength: maxValues },
  );
}

/** A record being built: its (mutable, already cloned) entry and its origin. */
export interface DraftRecord {
  entry: Record<string, unknown>;
  readonly origin: string;
}

const OFFSETS_MIN = [330, -480, 840, -720, 0, 345] as const;
const NUMERIC_FIELDS = ["input", "output", "cacheRead", "cacheWrite", "totalTokens"] as const;

function pickOf<T>(items: readonly T[], n: number): T | undefined {
  return items.length === 0 ? undefined : items[n % items.length];
}

function withOffset(iso: string, minutes: number): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, -1);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${local}${sign}${hh}:${mm}`;
}

/** The text `html-text` adds to a message. */
export const HTML_TEXT =
  '<script>alert("x")</script> <img src=x onerror=alert(1)> &lt;b&gt; <!-- c -->';

/** The integers `big-integers` plants: beyond 2^53, 2^63 and 2^64 (each exact as a double). */
export const BIG_INTEGERS: readonly number[] = [2 ** 53 + 2, 2 ** 63, 2 ** 64 + 2 ** 13];

/** The long text of `long-lines`: readable, deterministic, exactly `length` characters. */
export function longText(length: number): string {
  const unit = "a very long line of session text ";
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

function appendToText(message: Record<string, unknown>, extra: string): boolean {
  if (typeof message.content === "string") {
    message.content = `${message.content}${extra}`;
    return true;
  }
  if (!Array.isArray(message.content)) return false;
  const block = message.content.find(
    (b): b is { type: "text"; text: string } =>
      typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string",
  );
  if (block) block.text += extra;
  else message.content.push({ type: "text", text: extra });
  return true;
}

function messageOf(entry: Record<string, unknown>, roles: readonly string[]) {
  const m = entry.message as Record<string, unknown> | undefined;
  return entry.type === "message" && m && roles.includes(m.role as string) ? m : undefined;
}

/**
 * Plants one value into a session's records (in place; `records` hold clones). Returns the
 * record it changed, or undefined when there was nowhere to put it (no usage record for a
 * numeric string). `collisions`, `entry-id-collisions` and `bom` are planted across files by
 * the folder, not here.
 */
export function plantValue(
  records: DraftRecord[],
  spec: HostileValueSpec,
  longLineLength: number,
): DraftRecord | undefined {
  const withUsage = records.filter((r) => usageSourceOf(r.entry) !== undefined);
  const chosen = pickOf(withUsage, spec.pick);
  const u = chosen ? (usageSourceOf(chosen.entry)?.usage as Record<string, unknown>) : undefined;
  switch (spec.name) {
    case "timestamp-microseconds":
    case "timestamp-offset": {
      const r = pickOf(
        records.filter((d) => typeof d.entry.timestamp === "string"),
        spec.pick,
      );
      if (!r) return undefined;
      const ts = r.entry.timestamp as string;
      const next =
        spec.name === "timestamp-offset"
          ? withOffset(ts, OFFSETS_MIN[spec.variant % OFFSETS_MIN.length] as number)
          : /\.\d{3}Z$/.test(ts)
            ? `${ts.slice(0, -1)}${String(spec.variant % 1000).padStart(3, "0")}Z`
            : undefined;
      if (next === undefined) return undefined;
      r.entry.timestamp = next;
      return r;
    }
    case "numeric-strings": {
      const field = NUMERIC_FIELDS[spec.variant % NUMERIC_FIELDS.length] as string;
      if (!u || typeof u[field] !== "number") return undefined;
      u[field] = String(u[field]);
      return chosen;
    }
    case "cost-without-tokens": {
      if (!u) return undefined;
      for (const k of Object.keys(u)) if (k !== "cost") delete u[k];
      if (typeof u.cost !== "object" || u.cost === null) u.cost = { total: 0.25 };
      return chosen;
    }
    case "zero-and-negative": {
      if (!u) return undefined;
      const field = NUMERIC_FIELDS[spec.variant % NUMERIC_FIELDS.length] as string;
      u[field] = spec.variant % 2 === 0 ? 0 : -(1 + (spec.variant % 997));
      return chosen;
    }
    case "no-total-tokens": {
      if (!u || !("totalTokens" in u)) return undefined;
      delete u.totalTokens;
      return chosen;
    }
    case "duplicate-lines": {
      const at = records.length === 0 ? -1 : spec.pick % records.length;
      const r = records[at];
      if (!r) return undefined;
      records.splice(at + 1, 0, { entry: r.entry, origin: r.origin });
      return r;
    }
    case "line-separators": {
      const r = pickOf(
        records.filter((d) => messageOf(d.entry, ["user", "assistant"])),
        spec.pick,
      );
      const m = r && messageOf(r.entry, ["user", "assistant"]);
      return m && appendToText(m, "\u2028 and \u2029") ? r : undefined;
    }
    case "html-text": {
      const r = pickOf(
        records.filter((d) => messageOf(d.entry, ["user", "assistant"])),
        spec.pick,
      );
      const m = r && messageOf(r.entry, ["user", "assistant"]);
      return m && appendToText(m, ` ${HTML_TEXT}`) ? r : undefined;
    }
    case "big-integers": {
      if (!u) return undefined;
      const field = NUMERIC_FIELDS[spec.variant % 4] as string;
      u[field] = BIG_INTEGERS[spec.variant % BIG_INTEGERS.length] as number;
      return chosen;
    }
    case "long-lines": {
      const r = pickOf(records, spec.pick);
      if (!r) return undefined;
      const m = messageOf(r.entry, ["user"]);
      if (m) m.content = longText(longLineLength);
      else r.entry.x_long = longText(longLineLength);
      return r;
    }
    default:
      return undefined;
  }
}

/**
 * Plants a collision: record `b` (in another session) gets the timestamp and a copy of the
 * usage of record `a`. Both are records with usage; their ids stay different.
 */
export function plantCollision(a: DraftRecord, b: DraftRecord): boolean {
  const ua = usageSourceOf(a.entry);
  const ub = usageSourceOf(b.entry);
  if (!ua || !ub || typeof a.entry.timestamp !== "string") return false;
  b.entry.timestamp = a.entry.timestamp;
  const copy = JSON.parse(JSON.stringify(ua.usage)) as Record<string, unknown>;
  for (const k of Object.keys(ub.usage)) delete ub.usage[k];
  Object.assign(ub.usage, copy);
  return true;
}

/** The id fields of an entry that name another entry (or itself). */
const ID_FIELDS = ["id", "parentId", "targetId", "firstKeptEntryId", "fromId"] as const;

/**
 * Plants an entry-id collision: record `b` (in another session) takes the id of record `a`,
 * and every record of `b`'s session that names `b` follows. Refused (false) when `a`'s id is
 * already used in `b`'s session, or when the two would be the same record at the same instant.
 */
export function plantIdCollision(a: DraftRecord, b: DraftRecord, session: DraftRecord[]): boolean {
  const to = a.entry.id;
  const from = b.entry.id;
  if (typeof to !== "string" || typeof from !== "string" || to === from) return false;
  if (a.entry.timestamp === b.entry.timestamp) return false;
  if (session.some((r) => r.entry.id === to)) return false;
  for (const r of session) {
    for (const key of ID_FIELDS) if (r.entry[key] === from) r.entry[key] = to;
  }
  return true;
}
